package mailmsg_test

import (
	"net/mail"
	"slices"
	"strings"
	"testing"

	"github.com/congobymail/congo/mailmsg"
)

// header returns the unfolded value of the first field key in raw.
func header(t *testing.T, raw []byte, key string) string {
	t.Helper()
	var (
		value string
		found bool
	)
	for _, line := range headerFields(raw) {
		switch {
		case found && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")):
			value += line
		case found:
			return value
		case strings.HasPrefix(line, key+": "):
			value, found = strings.TrimPrefix(line, key+": "), true
		}
	}
	return value
}

func TestComposeFromName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want string // the From field; empty for RFC 2047 encoded words
	}{
		{"", "<congo@pbm.example.net>"},
		{"Congo", "Congo <congo@pbm.example.net>"},
		{"Congo by Mail", "Congo by Mail <congo@pbm.example.net>"},
		{"Congo (test)", `"Congo (test)" <congo@pbm.example.net>`},
		{"Congo, the server", `"Congo, the server" <congo@pbm.example.net>`},
		{"=?utf-8?q?Evil?=", `"=?utf-8?q?Evil?=" <congo@pbm.example.net>`},
		{"Čongo", ""},
		{"コンゴ", ""},
		{"コンゴ対局サーバー、日本語の長い名前でも一行に収まらないほど長い表示名", ""},
	}
	for _, tt := range tests {
		raw, _, err := mailmsg.Compose(mailmsg.Outgoing{
			From: "congo@pbm.example.net", FromName: tt.name, To: "alice@example.org", Subject: "s", Text: "t",
		}, "")
		if err != nil {
			t.Fatalf("Compose(FromName %q) error = %v", tt.name, err)
		}
		checkWireFormat(t, raw)
		for _, line := range headerFields(raw) {
			if len(line) > 76 {
				t.Errorf("Compose(FromName %q) header line is %d long, want at most 76: %q", tt.name, len(line), line)
			}
		}
		from := header(t, raw, "From")
		if tt.want != "" && from != tt.want {
			t.Errorf("Compose(FromName %q) From = %q, want %q", tt.name, from, tt.want)
		}
		if tt.want == "" && !strings.HasPrefix(from, "=?utf-8?") {
			t.Errorf("Compose(FromName %q) From = %q, want RFC 2047 encoded words", tt.name, from)
		}
		// Read back by us and by the standard library.
		in, err := mailmsg.Parse(raw)
		if err != nil {
			t.Fatalf("Parse(Compose(FromName %q)) error = %v", tt.name, err)
		}
		if in.FromName != tt.name || in.From != "congo@pbm.example.net" {
			t.Errorf("Parse(Compose(FromName %q)) = FromName %q, From %q; want %q, %q", tt.name, in.FromName, in.From, tt.name, "congo@pbm.example.net")
		}
		if a, err := mail.ParseAddress(from); err != nil || a.Name != tt.name {
			t.Errorf("net/mail.ParseAddress(%q) = %v, %v; want the name %q", from, a, err, tt.name)
		}
	}
}

func TestComposeFromNameCannotInjectHeaders(t *testing.T) {
	t.Parallel()
	raw, _, err := mailmsg.Compose(mailmsg.Outgoing{
		From: "congo@pbm.example.net", FromName: "Congo\r\nBcc: victim@example.org", To: "alice@example.org",
	}, "h")
	if err != nil {
		t.Fatalf("Compose error = %v", err)
	}
	if slices.ContainsFunc(headerFields(raw), func(l string) bool { return strings.HasPrefix(l, "Bcc:") }) {
		t.Errorf("Compose let a header in through FromName:\n%s", raw)
	}
}

// A Subject with words that are not ASCII is written as RFC 2047 encoded
// words (M42), in lines of at most 76 characters even when it is long
// (mail.Header.SetSubject would write one line of up to 998); its ASCII
// words stay readable.
func TestComposeSubjectEncoding(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		subject string
		encoded bool
	}{
		{"Congo game 42: alice vs bob", false},
		{"Congo game 42: alice vs bob, a Subject of ASCII words long enough to be folded", false},
		{"Congo 対局 42: はなこ 対 たろう", true},
		{"対局４２：はなこ（白）対たろう（黒）、はなこの手番です。次の手を返信で送ってください", true},
		{"Congo game 42: Petr vs Šárka – tah má Šárka", true},
		{"Hra 42: Přijímám výzvu, žluťoučký kůň úpěl ďábelské ódy a šťastná hra začíná", true},
		{"Šárka  vs  Łukasz, two spaces", true},
		{"=?utf-8?q?not_an_encoded_word?=", true},
		{"a_b=c?d", false},
	} {
		raw, _, err := mailmsg.Compose(mailmsg.Outgoing{
			From: "congo@pbm.example.net", To: "alice@example.org", Subject: tt.subject, Text: "t",
		}, "")
		if err != nil {
			t.Fatalf("Compose(Subject %q) error = %v", tt.subject, err)
		}
		checkWireFormat(t, raw)
		for _, line := range headerFields(raw) {
			if len(line) > 76 {
				t.Errorf("Compose(Subject %q) header line is %d long, want at most 76: %q", tt.subject, len(line), line)
			}
		}
		subject := header(t, raw, "Subject")
		if got := strings.Contains(subject, "?q?"); got != tt.encoded {
			t.Errorf("Compose(Subject %q) Subject = %q, Q encoded %v, want %v", tt.subject, subject, got, tt.encoded)
		}
		in, err := mailmsg.Parse(raw)
		if err != nil {
			t.Fatalf("Parse(Compose(Subject %q)) error = %v", tt.subject, err)
		}
		if in.Subject != tt.subject {
			t.Errorf("Parse(Compose(Subject %q)).Subject = %q", tt.subject, in.Subject)
		}
	}
}
