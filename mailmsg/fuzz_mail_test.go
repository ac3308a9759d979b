package mailmsg_test

import (
	"testing"
	"time"
	"unicode/utf8"

	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/parser"
)

// maxParse is how long one Parse may take under the fuzzer: its budget
// and a second more for -race and a busy machine.
const maxParse = mailmsg.ParseTimeout + time.Second

// FuzzMail reads whole mails as the server does, the MIME parts and then
// the commands: nothing may panic, Parse stays within its budget of time,
// and the text handed to the parser is valid UTF-8 of at most MaxText
// bytes. Its corpus (testdata/fuzz/FuzzMail) holds deep nesting, many
// parts, the mails of testdata and some of cmd/congod/testdata/hostile.
func FuzzMail(f *testing.F) {
	f.Fuzz(func(t *testing.T, raw []byte) {
		start := time.Now()
		in, err := mailmsg.Parse(raw)
		if took := time.Since(start); took > maxParse {
			t.Errorf("Parse(%d bytes) took %v, want at most %v", len(raw), took, maxParse)
		}
		if in == nil {
			t.Fatalf("Parse(%.200q) = nil", raw)
		}
		if !utf8.ValidString(in.Text) || len(in.Text) > mailmsg.MaxText {
			t.Errorf("Parse(%.200q).Text is %d bytes, valid UTF-8 %v; want valid UTF-8 of at most %d bytes",
				raw, len(in.Text), utf8.ValidString(in.Text), mailmsg.MaxText)
		}
		if in.Cut != "" && err == nil {
			t.Errorf("Parse(%.200q) = Cut %q and no error, want an error for the cut", raw, in.Cut)
		}

		start = time.Now()
		parser.Parse(in.Subject, in.Text, parser.Context{Game: 1})
		if took := time.Since(start); took > maxParse {
			t.Errorf("parser.Parse of Parse(%d bytes) took %v, want at most %v", len(raw), took, maxParse)
		}
	})
}
