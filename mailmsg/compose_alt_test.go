package mailmsg_test

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/mailmsg"
)

func TestComposeAlternative(t *testing.T) {
	html := "<!DOCTYPE html>\n<html><body><p>Game 42 — alice vs bob</p>\n<table><tr>" +
		strings.Repeat("<td style=\"width:40px;background:#7fb8e6\">p</td>", 30) + "</tr></table>\n</body></html>\n"
	out := mailmsg.Outgoing{
		From: "congo@pbm.example.net", To: "alice@example.org", ToName: "alice",
		ReplyTo: "congo+k3x9q2@pbm.example.net", Subject: "Congo game 42: alice vs bob - bob to move",
		Text: "Bob played b6-b5.\n\n" + board, HTML: html, MessageID: "game42.move4@pbm.example.net",
		InReplyTo: []string{"game42.start@pbm.example.net"}, References: []string{"game42.start@pbm.example.net"},
		Date: time.Date(2025, 6, 14, 10, 0, 0, 0, time.UTC),
	}
	raw, _, err := mailmsg.Compose(out, "pbm.example.net")
	if err != nil {
		t.Fatalf("Compose() error = %v", err)
	}
	checkWireFormat(t, raw)

	// Plain-text readers get the text part, as before.
	in, err := mailmsg.Parse(raw)
	if err != nil {
		t.Fatalf("Parse(Compose()) error = %v", err)
	}
	if in.Text != out.Text || in.Subject != out.Subject || in.MessageID != out.MessageID {
		t.Errorf("Parse(Compose()) = text %q, subject %q, id %q; want %q, %q, %q",
			in.Text, in.Subject, in.MessageID, out.Text, out.Subject, out.MessageID)
	}

	// The parts: text/plain first, text/html last (M12), each decoding to
	// what was given.
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/alternative" {
		t.Fatalf("Content-Type = %q (%v), want multipart/alternative", msg.Header.Get("Content-Type"), err)
	}
	want := []struct{ kind, body string }{{"text/plain", out.Text}, {"text/html", html}}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for i := 0; ; i++ {
		p, err := r.NextRawPart()
		if err == io.EOF {
			if i != len(want) {
				t.Errorf("%d parts, want %d", i, len(want))
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if i >= len(want) {
			t.Fatalf("more than %d parts", len(want))
		}
		kind, ps, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if kind != want[i].kind || ps["charset"] != "utf-8" {
			t.Errorf("part %d is %q, want %s; charset=utf-8", i, p.Header.Get("Content-Type"), want[i].kind)
		}
		var body io.Reader = p
		if p.Header.Get("Content-Transfer-Encoding") == "quoted-printable" {
			body = quotedprintable.NewReader(p)
		}
		got, err := io.ReadAll(body)
		if err != nil {
			t.Fatal(err)
		}
		if s := strings.ReplaceAll(string(got), "\r\n", "\n"); s != want[i].body {
			t.Errorf("part %d (%s) = %q, want %q", i, kind, s, want[i].body)
		}
	}
}
