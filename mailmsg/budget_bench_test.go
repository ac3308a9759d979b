package mailmsg_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/congobymail/congo/mailmsg"
)

// deepMail returns a mail of depth nested multipart/mixed, each holding
// only the next; the innermost holds the text "move congo 42 b2-b3".
func deepMail(depth int) []byte {
	return nestedMail(depth, 0, "")
}

// deepMailOfSize returns a mail like deepMail, nested as deep as it takes
// for the mail to be about size bytes long.
func deepMailOfSize(size int) []byte {
	return nestedMail(-1, size, "")
}

// nestedMail returns a mail like deepMail of depth levels or, when depth
// is negative, of about size bytes. The part first, when not empty (a
// header, a blank line and a body), comes before the nested levels in the
// outermost.
func nestedMail(depth, size int, first string) []byte {
	var b, end strings.Builder
	b.WriteString(mailHead + "Content-Type: multipart/mixed; boundary=b0\r\n\r\n")
	if first != "" {
		b.WriteString("--b0\r\n" + first + "\r\n")
	}
	closings := []string{"--b0--\r\n"}
	n := 0
	for ; depth < 0 && b.Len()+end.Len() < size || n < depth-1; n++ {
		fmt.Fprintf(&b, "--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n", n, n+1)
		c := fmt.Sprintf("--b%d--\r\n", n+1)
		closings = append(closings, c)
		end.WriteString(c)
	}
	fmt.Fprintf(&b, "--b%d\r\nContent-Type: text/plain\r\n\r\nmove congo 42 b2-b3\r\n", n)
	for i := len(closings) - 1; i >= 0; i-- {
		b.WriteString(closings[i])
	}
	return []byte(b.String())
}

// mailHead is the start of the header of the generated mails.
const mailHead = "From: mallory@example.org\r\nTo: congo@pbm.example.net\r\n" +
	"Subject: deep\r\nMessage-ID: <deep@example.org>\r\nMIME-Version: 1.0\r\n"

// typicalReply is an ordinary reply from a mail client: multipart/
// alternative, quoted-printable, the board quoted below the move.
const typicalReply = "Return-Path: <alice@example.org>\r\n" +
	"Delivered-To: congo+k3x9q2@pbm.example.net\r\n" +
	"Authentication-Results: mx.pbm.example.net; dkim=pass header.d=example.org;\r\n" +
	" spf=pass smtp.mailfrom=example.org; dmarc=pass header.from=example.org\r\n" +
	"From: Alice Liddell <alice@example.org>\r\n" +
	"To: Congo <congo+k3x9q2@pbm.example.net>\r\n" +
	"Subject: Re: Congo game 42: alice vs bob\r\n" +
	"Date: Sat, 14 Jun 2025 10:02:11 +0200\r\n" +
	"Message-ID: <CAF7a1b2c3@mail.example.org>\r\n" +
	"In-Reply-To: <game42.move3@pbm.example.net>\r\n" +
	"References: <game42.start@pbm.example.net> <game42.move3@pbm.example.net>\r\n" +
	"MIME-Version: 1.0\r\n" +
	"Content-Type: multipart/alternative; boundary=\"000000000000a1b2c3\"\r\n" +
	"\r\n" +
	"--000000000000a1b2c3\r\n" +
	"Content-Type: text/plain; charset=\"UTF-8\"\r\n" +
	"Content-Transfer-Encoding: quoted-printable\r\n" +
	"\r\n" +
	"b2-b3\r\n" +
	"\r\n" +
	"Sch=C3=B6ner Zug von dir, mal sehen was jetzt kommt.\r\n" +
	"\r\n" +
	"On Sat, 14 Jun 2025 at 09:00, Congo <congo@pbm.example.net> wrote:\r\n" +
	"> Bob played b6-b5.\r\n" +
	">\r\n" +
	">     a b c d e f g\r\n" +
	">   +---------------+\r\n" +
	"> 7 | g m e l e c z | 7\r\n" +
	"> 6 | p . p p p p p | 6\r\n" +
	"> 5 | . p . . . . . | 5\r\n" +
	"> 4 | ~ ~ ~ ~ ~ ~ ~ | 4\r\n" +
	"> 3 | . . . . . . . | 3\r\n" +
	"> 2 | P P P P P P P | 2\r\n" +
	"> 1 | G M E L E C Z | 1\r\n" +
	">   +---------------+\r\n" +
	"> Position: gmelecz/p1ppppp/1p5/7/7/PPPPPPP/GMELECZ w 2\r\n" +
	"\r\n" +
	"--000000000000a1b2c3\r\n" +
	"Content-Type: text/html; charset=\"UTF-8\"\r\n" +
	"Content-Transfer-Encoding: quoted-printable\r\n" +
	"\r\n" +
	"<div dir=3D\"ltr\">b2-b3<div><br></div><div>Sch=C3=B6ner Zug von dir, mal se=\r\n" +
	"hen was jetzt kommt.</div></div><br><div class=3D\"gmail_quote\">On Sat, 14 J=\r\n" +
	"un 2025 at 09:00, Congo wrote:<br><blockquote class=3D\"gmail_quote\"><pre>Bo=\r\n" +
	"b played b6-b5.</pre></blockquote></div>\r\n" +
	"\r\n" +
	"--000000000000a1b2c3--\r\n"

func BenchmarkParseDeep(b *testing.B) {
	for _, bm := range []struct {
		name string
		raw  []byte
	}{
		{"depth=5000", deepMail(5000)},
		{"size=1MiB", deepMailOfSize(1 << 20)},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.SetBytes(int64(len(bm.raw)))
			for b.Loop() {
				mailmsg.Parse(bm.raw)
			}
		})
	}
}

func BenchmarkParseTypical(b *testing.B) {
	raw := []byte(typicalReply)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		in, _ := mailmsg.Parse(raw)
		if !strings.HasPrefix(in.Text, "b2-b3\n") {
			b.Fatalf("Parse(typical reply).Text = %q, want it to start with the move", in.Text)
		}
	}
}
