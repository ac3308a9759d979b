package main

import (
	"bytes"
	"context"
	"fmt"
	"mime"
	"mime/quotedprintable"
	netmail "net/mail"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"

	"github.com/congobymail/congo/mailmsg"
)

// client is a player's mail program: the charset it writes in, how it
// encodes the body, and the language it names.
type client struct {
	charset  string
	encoding encoding.Encoding
	cte      string // "7bit" (ISO-2022-JP) or "quoted-printable"
	language string // Content-Language
}

// sendIn mails a message as the client c writes it: the Subject as RFC
// 2047 encoded words in c's charset, the body in it.
func (w *world) sendIn(c client, from, to, subject, body, inReplyTo string) {
	w.t.Helper()
	enc := func(s string) string {
		b, err := c.encoding.NewEncoder().String(s)
		if err != nil {
			w.t.Fatalf("%q in %s: %v", s, c.charset, err)
		}
		return b
	}
	w.n++
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nMessage-ID: <m%d.%s@client.example.net>\r\n", from, to, w.n, strings.Split(from, "@")[0])
	if subject != "" {
		fmt.Fprintf(&b, "Subject: %s\r\n", mime.BEncoding.Encode(c.charset, enc(subject)))
	}
	fmt.Fprintf(&b, "Date: %s\r\n", time.Now().Format(time.RFC1123Z))
	if inReplyTo != "" {
		fmt.Fprintf(&b, "In-Reply-To: <%s>\r\nReferences: <%s>\r\n", inReplyTo, inReplyTo)
	}
	fmt.Fprintf(&b, "Content-Language: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=%s\r\nContent-Transfer-Encoding: %s\r\n\r\n", c.language, c.charset, c.cte)
	text := enc(strings.ReplaceAll(body, "\n", "\r\n") + "\r\n")
	if c.cte == "quoted-printable" {
		var qp bytes.Buffer
		q := quotedprintable.NewWriter(&qp)
		q.Write([]byte(text))
		q.Close()
		text = qp.String()
	}
	b.WriteString(text)
	if err := w.sys.Deliver(context.Background(), from, []string{to}, []byte(b.String())); err != nil {
		w.t.Fatalf("deliver from %s: %v", from, err)
	}
}

// wantOwnLanguage checks that a mail the server sent is in language l
// (Content-Language), UTF-8, with its Subject RFC 2047 encoded (M42).
func (w *world) wantOwnLanguage(what string, m *mailmsg.Incoming, l string) {
	w.t.Helper()
	msg, err := netmail.ReadMessage(bytes.NewReader(w.raw[m.MessageID]))
	if err != nil {
		w.t.Fatal(err)
	}
	if got := msg.Header.Get("Content-Language"); got != l {
		w.t.Errorf("%s: Content-Language %q, want %q", what, got, l)
	}
	raw := msg.Header.Get("Subject")
	ascii := strings.IndexFunc(m.Subject, func(r rune) bool { return r > '~' }) < 0
	if strings.IndexFunc(raw, func(r rune) bool { return r > '~' }) >= 0 || !ascii && !strings.Contains(strings.ToLower(raw), "=?utf-8?") {
		w.t.Errorf("%s: Subject %q is not RFC 2047 encoded UTF-8", what, raw)
	}
	if !strings.Contains(strings.ToLower(string(w.raw[m.MessageID])), "charset=utf-8") {
		w.t.Errorf("%s: not UTF-8:\n%s", what, w.raw[m.MessageID])
	}
}

// TestEndToEndLanguages (M40-M42) plays a game by mail through the
// daemon, over loopback IMAP and SMTP, between a Japanese player whose
// client writes ISO-2022-JP, with a Japanese input method's full-width
// commands and moves, and a Czech player whose client writes
// windows-1250: each registers with their client's Content-Language,
// reads every mail in their own language, and reads the other's chat
// lines decoded.
func TestEndToEndLanguages(t *testing.T) {
	w := startWorldWith(t, "hanako", "jan")
	const server = "congo@example.org"
	hanako, jan := "hanako@example.org", "jan@example.org"
	ja := client{charset: "ISO-2022-JP", encoding: japanese.ISO2022JP, cte: "7bit", language: "ja-JP"}
	cs := client{charset: "windows-1250", encoding: charmap.Windows1250, cte: "quoted-printable", language: "cs"}

	w.sendIn(ja, hanako, server, "登録", "ｒｅｇｉｓｔｅｒ　ｈａｎａｋｏ", "")
	hWelcome := w.expect("hanako", 1)[0]
	wantSubject(t, "hanako's welcome", hWelcome, "Congo へようこそ、hanako さん") // our words, not the mail's that proves nothing (M55)
	wantContains(t, "hanako's welcome", hWelcome, "Congo へようこそ、hanako さん！", "あなた専用のアドレスは次のとおりです。")
	w.wantOwnLanguage("hanako's welcome", hWelcome, "ja")
	hPA := w.replyTo(hWelcome)
	w.sendIn(cs, jan, server, "Registrace", "register jan\n\n-- \nJan Novák", "")
	jWelcome := w.expect("jan", 1)[0]
	wantContains(t, "jan's welcome", jWelcome, "Vítejte na serveru Congo, jan!")
	w.wantOwnLanguage("jan's welcome", jWelcome, "cs")
	jPA := w.replyTo(jWelcome)
	w.sendIn(cs, jan, jPA, "Re: "+jWelcome.Subject, "games", jWelcome.MessageID) // confirms jan's address
	wantContains(t, "jan's games", w.expect("jan", 1)[0], "Nemáte žádné partie.")

	w.sendIn(ja, hanako, hPA, "対局の申し込み", "ｃｈａｌｌｅｎｇｅ　ｃｏｎｇｏ　ｊａｎ", "")
	challenge := w.expect("jan", 1)[0]
	wantSubject(t, "the challenge", challenge, "Congo partie 1: hanako – jan")
	wantContains(t, "the challenge", challenge, "hanako vás vyzývá k partii Congo: partie 1.", "accept congo 1")
	w.wantOwnLanguage("the challenge", challenge, "cs")
	sent := w.expect("hanako", 1)[0]
	wantSubject(t, "the challenge sent", sent, "Congo 対局 1: hanako 対 jan")
	wantContains(t, "the challenge sent", sent, "jan への対局の申し込みは、対局 1 になりました。")

	w.sendIn(cs, jan, jPA, "Re: "+challenge.Subject, "Přijímám, ať vyhraje lepší! Žluťoučký kůň.\naccept", challenge.MessageID)
	start := w.expect("hanako", 1)[0]
	wantSubject(t, "the start", start, "Congo 対局 1: hanako 対 jan")
	wantContains(t, "the start", start, "jan が対局の申し込みを受けました。", "jan からのメッセージ：", "Přijímám, ať vyhraje lepší! Žluťoučký kůň.", "あなたの手番です。")
	w.wantOwnLanguage("the start", start, "ja")
	jStart := w.expect("jan", 1)[0]
	wantContains(t, "the start to jan", jStart, "Tah 1: na tahu je hanako (hraje bílými).")

	// Full-width, with the Japanese full stop after it (M20, M21).
	w.sendIn(ja, hanako, hPA, "Re: "+start.Subject, "ｄ２－ｅ３。\nよろしくお願いします！", start.MessageID)
	j1 := w.expect("jan", 1)[0]
	wantSubject(t, "the first move", j1, "Congo partie 1: hanako – jan")
	wantContains(t, "the first move", j1, "hanako: d2-e3 — pěšec táhl na e3.", "hanako píše:", "よろしくお願いします！", "Jste na tahu")
	w.wantOwnLanguage("the first move", j1, "cs")
	h1 := w.expect("hanako", 1)[0]
	wantContains(t, "the mover's copy", h1, "あなた：d2-e3 — あなたのポーンが e3 に動きました。", "あなたのメッセージを jan に伝えました。")

	w.sendIn(cs, jan, jPA, "Re: "+j1.Subject, "d6-c5 anyway\nDěkuji, vám také. Příliš žluťoučký kůň úpěl ďábelské ódy.", j1.MessageID)
	h2 := w.expect("hanako", 1)[0]
	wantContains(t, "jan's move", h2, "jan：d6-c5 — ポーンが c5 に動きました。", "jan からのメッセージ：", "Děkuji, vám také. Příliš žluťoučký kůň úpěl ďábelské ódy.")
	w.wantOwnLanguage("jan's move", h2, "ja")
	wantContains(t, "jan's copy", w.expect("jan", 1)[0], "Vaše zpráva byla předána hráči hanako.")

	// The lion flies across the open d-file (R4), written full-width.
	w.sendIn(ja, hanako, hPA, "Re: "+h2.Subject, "ｄ１ｘｄ７！", h2.MessageID)
	hEnd := w.expect("hanako", 1)[0]
	wantSubject(t, "the end", hEnd, "Congo 対局 1: hanako 対 jan")
	wantContains(t, "the end", hEnd, "あなた：d1xd7", "あなたの勝ちです。")
	jEnd := w.expect("jan", 1)[0]
	wantSubject(t, "the end to jan", jEnd, "Congo partie 1: hanako – jan")
	wantContains(t, "the end to jan", jEnd, "hanako: d1xd7 — lev zajal lva na d7.", "Výhra: hanako. Váš lev byl zajat.")
	w.wantOwnLanguage("the end to jan", jEnd, "cs")

	// The record keeps its English tags, and both players' words (M40).
	w.sendIn(cs, jan, jPA, "", "history congo 1", "")
	record := w.expect("jan", 1)[0]
	wantContains(t, "the record", record, "Zápis partie 1:", `[Result "1-0"]`, "よろしくお願いします！", "Příliš žluťoučký kůň")
}
