package mailmsg_test

import (
	"strings"
	"testing"

	"github.com/congobymail/congo/mailmsg"
	"github.com/emersion/go-message"
)

// charsetMails are bodies and Subjects as Japanese and Czech mail
// clients write them, the bytes written out by hand from the charsets'
// tables (M41): each body as it is (8bit, or 7bit for ISO-2022-JP),
// quoted-printable and base64, each Subject as a B and a Q encoded word.
// The Japanese full-width minus (0x215D in JIS X 0208, 0x817C in
// Shift_JIS) comes back as U+FF0D, which NFKC reads as "-".
var charsetMails = []struct {
	charset      string
	raw, qp, b64 string
	subjB, subjQ string
	text         string
	subject      string
}{
	{
		charset: "ISO-2022-JP",
		raw:     "\x1b$B#b#2!]#b#4\x1b(B \x1b$B$h$m$7$/\x1b(B",
		qp:      "=1B$B#b#2!]#b#4=1B(B =1B$B$h$m$7$/=1B(B",
		b64:     "GyRCI2IjMiFdI2IjNBsoQiAbJEIkaCRtJDckLxsoQg==",
		subjB:   "=?ISO-2022-JP?B?GyRCQlA2SSM0IzIkTjxqGyhC?=",
		subjQ:   "=?ISO-2022-JP?Q?=1B$BBP6I#4#2$N<j=1B(B?=",
		text:    "ｂ２－ｂ４ よろしく",
		subject: "対局４２の手",
	},
	{
		charset: "Shift_JIS",
		raw:     "\x8e\x9f\x82\xcc\x8e\xe8\x81F\x82\x82\x82Q\x81|\x82\x82\x82S\x81A\x82\xa8\x8a\xe8\x82\xa2\x82\xb5\x82\xdc\x82\xb7\x81B",
		qp:      "=8E=9F=82=CC=8E=E8=81F=82=82=82Q=81|=82=82=82S=81A=82=A8=8A=E8=82=A2=82=B5=\r\n=82=DC=82=B7=81B",
		b64:     "jp+CzI7ogUaCgoJRgXyCgoJTgUGCqIrogqKCtYLcgreBQg==",
		subjB:   "=?Shift_JIS?B?jp+CzI7ogsWCtw==?=",
		subjQ:   "=?Shift_JIS?Q?=8E=9F=82=CC=8E=E8=82=C5=82=B7?=",
		text:    "次の手：ｂ２－ｂ４、お願いします。",
		subject: "次の手です",
	},
	{
		charset: "EUC-JP",
		raw:     "\xa4\xe8\xa4\xed\xa4\xb7\xa4\xaf\xa4\xaa\xb4\xea\xa4\xa4\xa4\xb7\xa4\xde\xa4\xb9\r\nb2-b3",
		qp:      "=A4=E8=A4=ED=A4=B7=A4=AF=A4=AA=B4=EA=A4=A4=A4=B7=A4=DE=A4=B9\r\nb2-b3",
		b64:     "pOik7aS3pK+kqrTqpKSkt6TepLkKYjItYjM=",
		subjB:   "=?EUC-JP?B?o+KjsqHdo+Kjs6THxerOu6Gp?=",
		subjQ:   "=?EUC-JP?Q?=A3=E2=A3=B2=A1=DD=A3=E2=A3=B3=A4=C7=C5=EA=CE=BB=A1=A9?=",
		text:    "よろしくお願いします\nb2-b3",
		subject: "ｂ２－ｂ３で投了？",
	},
	{
		charset: "windows-1250",
		raw:     "Dobr\xfd tah, \x9eirafa!",
		qp:      "Dobr=FD tah, =9Eirafa!",
		b64:     "RG9icv0gdGFoLCCeaXJhZmEh",
		subjB:   "=?windows-1250?B?UPhpau1t4W0gdv16dnUgliCKnWFzdG7hIGhyYQ==?=",
		subjQ:   "=?windows-1250?Q?P=F8ij=EDm=E1m_v=FDzvu_=96_=8A=9Dastn=E1_hra?=",
		text:    "Dobrý tah, žirafa!",
		subject: "Přijímám výzvu – Šťastná hra",
	},
	{
		charset: "ISO-8859-2",
		raw:     "P\xf8\xedli\xb9 \xbelu\xbbou\xe8k\xfd k\xf9\xf2 \xfap\xecl \xef\xe1belsk\xe9 \xf3dy.",
		qp:      "P=F8=EDli=B9 =BElu=BBou=E8k=FD k=F9=F2 =FAp=ECl =EF=E1belsk=E9 =F3dy.",
		b64:     "UPjtbGm5IL5sdbtvdehr/SBr+fIg+nDsbCDv4WJlbHNr6SDzZHku",
		subjB:   "=?ISO-8859-2?B?Vv16dmEgb2Qgo3VrYXN6ZQ==?=",
		subjQ:   "=?ISO-8859-2?Q?V=FDzva_od_=A3ukasze?=",
		text:    "Příliš žluťoučký kůň úpěl ďábelské ódy.",
		subject: "Výzva od Łukasze",
	},
}

func TestParseCharsets(t *testing.T) {
	t.Parallel()
	for _, c := range charsetMails {
		cte := "8bit"
		if c.charset == "ISO-2022-JP" {
			cte = "7bit"
		}
		for _, enc := range []struct{ cte, body, subject string }{
			{cte, c.raw, c.subjB},
			{"quoted-printable", c.qp, c.subjQ},
			{"base64", c.b64, c.subjB},
		} {
			name := c.charset + " " + enc.cte
			raw := "From: hana@example.jp\r\nTo: congo@pbm.example.net\r\nSubject: " + enc.subject + "\r\n" +
				"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=" + c.charset + "\r\n" +
				"Content-Transfer-Encoding: " + enc.cte + "\r\n\r\n" + enc.body
			t.Run(name, func(t *testing.T) {
				in, err := mailmsg.Parse([]byte(raw))
				if err != nil {
					t.Errorf("Parse(%s) error = %v", name, err)
				}
				if in.Text != c.text {
					t.Errorf("Parse(%s).Text = %q, want %q", name, in.Text, c.text)
				}
				if in.Subject != c.subject {
					t.Errorf("Parse(%s).Subject = %q, want %q", name, in.Subject, c.subject)
				}
			})
		}
	}
}

// A charset nobody knows leaves the text as it was: what is valid UTF-8
// stays, the rest becomes U+FFFD, and the error says the charset was
// unknown; its encoded words stay as they were written.
func TestParseUnknownCharset(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ cte, body string }{
		{"8bit", "move congo 42 b2-b3\r\nDobr\xfd tah\r\n"},
		{"quoted-printable", "move congo 42 b2-b3\r\nDobr=FD tah\r\n"},
		{"base64", "bW92ZSBjb25nbyA0MiBiMi1iMw0KRG9icv0gdGFoDQo="},
	} {
		raw := "From: hana@example.jp\r\nSubject: =?x-mac-czech?Q?Dobr=FD_tah?=\r\nMIME-Version: 1.0\r\n" +
			"Content-Type: text/plain; charset=x-mac-czech\r\nContent-Transfer-Encoding: " + tt.cte + "\r\n\r\n" + tt.body
		in, err := mailmsg.Parse([]byte(raw))
		if want := "move congo 42 b2-b3\nDobr\uFFFD tah\n"; in.Text != want {
			t.Errorf("Parse(x-mac-czech, %s).Text = %q, want %q", tt.cte, in.Text, want)
		}
		if want := "=?x-mac-czech?Q?Dobr=FD_tah?="; in.Subject != want {
			t.Errorf("Parse(x-mac-czech, %s).Subject = %q, want %q", tt.cte, in.Subject, want)
		}
		if !message.IsUnknownCharset(err) {
			t.Errorf("Parse(x-mac-czech, %s) error = %v, want one that satisfies message.IsUnknownCharset", tt.cte, err)
		}
		if strings.Contains(in.Text, "\r") {
			t.Errorf("Parse(x-mac-czech, %s).Text = %q, want LF line ends", tt.cte, in.Text)
		}
	}
}
