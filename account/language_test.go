package account_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// wantLanguage fails the test unless the mail says it is in language l
// (Content-Language, M40) and its Subject is RFC 2047 encoded UTF-8 when
// it has words that are not ASCII (M42).
func wantLanguage(t *testing.T, m servertest.Received, l lang.Code) {
	t.Helper()
	if got := m.Header.Get("Content-Language"); got != string(l) {
		t.Errorf("mail to %s %q: Content-Language %q, want %q", m.To, m.Subject, got, l)
	}
	raw := m.Header.Get("Subject")
	ascii := strings.IndexFunc(m.Subject, func(r rune) bool { return r > '~' }) < 0
	if !ascii && (!strings.Contains(strings.ToLower(raw), "=?utf-8?") || strings.IndexFunc(raw, func(r rune) bool { return r > '~' }) >= 0) {
		t.Errorf("mail to %s: Subject %q is not RFC 2047 encoded UTF-8: %q", m.To, m.Subject, raw)
	}
	if !strings.Contains(strings.ToLower(string(m.Raw)), "charset=utf-8") {
		t.Errorf("mail to %s is not UTF-8:\n%s", m.To, m.Raw)
	}
}

// gameNumber is the number of the game a Subject names, in any language:
// "Congo 対局 1: alice 対 bob", "Congo partie 1: alice – bob".
func gameNumber(t *testing.T, subject string) int64 {
	t.Helper()
	m := regexp.MustCompile(`^(?:Re: )?Congo [^ ]+ (\d+):`).FindStringSubmatch(subject)
	if m == nil {
		t.Fatalf("Subject %q names no game", subject)
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	return id
}

// TestLanguageCommand (M40): language with a code, a name in English or
// in the language itself, in full-width letters too; the answer is in the
// new language already; a word that names no language of the server
// changes nothing.
func TestLanguageCommand(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice")
	tests := []struct {
		line    string
		want    lang.Code
		subject string
		says    string
	}{
		{"language ja", lang.Japanese, "Congo を日本語で", "日本語で書きます"},
		{"language cs", lang.Czech, "Congo česky", "píše česky"},
		{"language en", lang.English, "Congo in English", "writes to you in English"},
		{"language 日本語", lang.Japanese, "Congo を日本語で", "日本語で書きます"},
		{"Language Czech", lang.Czech, "Congo česky", "píše česky"},
		{"language english", lang.English, "Congo in English", "writes to you in English"},
		{"language japanese", lang.Japanese, "Congo を日本語で", "日本語で書きます"},
		{"language čeština", lang.Czech, "Congo česky", "píše česky"},
		{"language en-GB", lang.English, "Congo in English", "writes to you in English"},
		{"language česky", lang.Czech, "Congo česky", "píše česky"},
		{"ｌａｎｇｕａｇｅ　ｊａ", lang.Japanese, "Congo を日本語で", "日本語で書きます"}, // a Japanese input method's full-width letters and space (M41)
	}
	for _, tt := range tests {
		w.SendProven("alice", tt.line)
		m := servertest.Only(t, w.Deliver(), "alice")
		if m.Subject != tt.subject {
			t.Errorf("%q: answer's Subject %q, want %q", tt.line, m.Subject, tt.subject)
		}
		servertest.WantText(t, m, tt.says)
		wantLanguage(t, m, tt.want)
		if got := w.Player("alice").Language; got != string(tt.want) {
			t.Errorf("%q: alice's language %q, want %q", tt.line, got, tt.want)
		}
	}
	w.SendProven("alice", "language fr")
	m := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantText(t, m, "language fr", "language en") // the error, in Japanese, names the languages by their codes
	wantLanguage(t, m, lang.Japanese)
	if got := w.Player("alice").Language; got != string(lang.Japanese) {
		t.Errorf("after language fr, alice's language %q, want it unchanged (ja)", got)
	}
}

// TestNewPlayerLanguage (M40): a new player's language is that of their
// register mail's Content-Language when the server has it, else the
// server's -language; an unknown sender is answered in their mail's.
func TestNewPlayerLanguage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		server  lang.Code
		header  string
		want    lang.Code
		welcome string
	}{
		{"", "", lang.English, "Welcome to Congo, alice!"},
		{"", "ja-JP", lang.Japanese, "Congo へようこそ、alice さん！"},
		{"", "cs, en", lang.Czech, "Vítejte na serveru Congo, alice!"},
		{"", "fr, ja", lang.Japanese, "Congo へようこそ"},
		{"", "fr", lang.English, "Welcome to Congo"},
		{lang.Czech, "", lang.Czech, "Vítejte na serveru Congo"},
		{lang.Czech, "de-AT", lang.Czech, "Vítejte na serveru Congo"},
		{lang.Japanese, "en-US", lang.English, "Welcome to Congo"},
	}
	for _, tt := range tests {
		w := servertest.New(t, server.Config{Settings: config.Settings{Language: string(tt.server)}})
		m := w.Mail("alice", "", "register alice")
		m.ContentLanguage = tt.header
		w.Process(m)
		got := servertest.Only(t, w.Deliver(), "alice")
		servertest.WantText(t, got, tt.welcome)
		wantLanguage(t, got, tt.want)
		if l := w.Player("alice").Language; l != string(tt.want) {
			t.Errorf("server %q, Content-Language %q: alice's language %q, want %q", tt.server, tt.header, l, tt.want)
		}

		stranger := w.Mail("zed", "hi", "challenge congo alice")
		stranger.ContentLanguage = tt.header
		w.Process(stranger)
		answer := servertest.Only(t, w.Deliver(), "zed")
		wantLanguage(t, answer, tt.want)
	}
}

// TestEachRecipientsLanguage (M40): one event mailed to several people
// is written for each in their own language: a move with a message
// reaches the Czech opponent in Czech, the Japanese mover in Japanese
// and an English observer in English; each keeps the Subject's words of
// their first mail about the game after changing language (M22).
func TestEachRecipientsLanguage(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.SendProven("alice", "language ja")
	w.SendProven("bob", "language cs")
	w.Deliver()

	w.SendProven("alice", "challenge congo bob")
	mails := w.Deliver()
	challenge := servertest.Only(t, mails, "bob")
	servertest.WantText(t, challenge, "alice vás vyzývá k partii Congo")
	wantLanguage(t, challenge, lang.Czech)
	sent := servertest.Only(t, mails, "alice")
	servertest.WantText(t, sent, "bob への対局の申し込み")
	wantLanguage(t, sent, lang.Japanese)
	id := gameNumber(t, challenge.Subject)

	w.Reply(challenge, "accept")
	mails = w.Deliver()
	board := servertest.Only(t, mails, "alice")
	if want := "Congo 対局 " + strconv.FormatInt(id, 10) + ": alice 対 bob"; board.Subject != want {
		t.Errorf("alice's Subject %q, want %q", board.Subject, want)
	}
	w.SendProven("carol", "observe congo "+strconv.FormatInt(id, 10))
	w.Deliver()

	w.Reply(board, "ｂ２－ｂ３。\nよろしくお願いします。")
	mails = w.Deliver()
	toBob := servertest.Only(t, mails, "bob")
	if want := "Congo partie " + strconv.FormatInt(id, 10) + ": alice – bob"; toBob.Subject != want {
		t.Errorf("bob's Subject %q, want %q", toBob.Subject, want)
	}
	servertest.WantText(t, toBob, "alice: b2-b3 — pěšec táhl na b3.", "alice píše:", "よろしくお願いします。", "Jste na tahu")
	wantLanguage(t, toBob, lang.Czech)
	toAlice := servertest.Only(t, mails, "alice")
	servertest.WantText(t, toAlice, "あなた：b2-b3 — あなたのポーンが b3 に動きました。", "あなたのメッセージを bob に伝えました。")
	wantLanguage(t, toAlice, lang.Japanese)
	toCarol := servertest.Only(t, mails, "carol")
	if want := "Congo game " + strconv.FormatInt(id, 10) + ": alice vs bob"; toCarol.Subject != want {
		t.Errorf("carol's Subject %q, want %q", toCarol.Subject, want)
	}
	servertest.WantText(t, toCarol, "alice: b2-b3 — the pawn moved to b3.")
	servertest.WantNoText(t, toCarol, "よろしく")
	wantLanguage(t, toCarol, lang.English)

	w.SendProven("bob", "language english")
	w.Deliver()
	w.Reply(toBob, "b6-b5")
	toAlice = servertest.Only(t, w.Deliver(), "alice")
	servertest.WantText(t, toAlice, "bob：b6-b5")
	w.Reply(toAlice, "c2-c3")
	toBob = servertest.Only(t, w.Deliver(), "bob")
	if want := "Congo partie " + strconv.FormatInt(id, 10) + ": alice – bob"; toBob.Subject != want {
		t.Errorf("after language english, bob's Subject %q, want the words of his first mail about the game, %q", toBob.Subject, want)
	}
	servertest.WantText(t, toBob, "alice: c2-c3", "It is your move")
	wantLanguage(t, toBob, lang.English)
}
