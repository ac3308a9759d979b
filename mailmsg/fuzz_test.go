package mailmsg_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/congobymail/congo/mailmsg"
)

func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.eml"))
	if err != nil {
		f.Fatal(err)
	}
	// The daemon's corpus of hostile mail too.
	hostile, err := filepath.Glob(filepath.Join("..", "cmd", "congod", "testdata", "hostile", "*.eml"))
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range append(files, hostile...) {
		raw, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		in, _ := mailmsg.Parse(raw)
		if in == nil {
			t.Fatalf("Parse(%q) = nil", raw)
		}
		if in.Size != len(raw) {
			t.Errorf("Parse(%q).Size = %d, want %d", raw, in.Size, len(raw))
		}
		if len(in.Text) > mailmsg.MaxText {
			t.Errorf("len(Parse(%q).Text) = %d, want at most %d", raw, len(in.Text), mailmsg.MaxText)
		}
		if !utf8.ValidString(in.Text) || strings.ContainsAny(in.Text, "\r\x00") {
			t.Errorf("Parse(%q).Text = %q, want valid UTF-8 without CR or NUL", raw, in.Text)
		}
		for name, v := range map[string]string{"Subject": in.Subject, "FromName": in.FromName} {
			if !utf8.ValidString(v) || strings.ContainsAny(v, "\r\n\x00") {
				t.Errorf("Parse(%q).%s = %q, want one line of valid UTF-8", raw, name, v)
			}
		}
		if in.From != strings.ToLower(in.From) {
			t.Errorf("Parse(%q).From = %q, want it lowercased", raw, in.From)
		}
		if (in.From == "") != (in.FromCount == 0) {
			t.Errorf("Parse(%q) = From %q, FromCount %d: inconsistent", raw, in.From, in.FromCount)
		}
		if in.AutoReply != (in.Why != "") {
			t.Errorf("Parse(%q) = AutoReply %v, Why %q: inconsistent", raw, in.AutoReply, in.Why)
		}
	})
}
