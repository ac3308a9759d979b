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
	t.Parallel()
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

// TestComposeHTMLReferences: an HTML part of short lines whose characters
// are not all ASCII goes 7bit, each such character a numeric character
// reference that reads as the character in HTML; one with such a
// character inside <style>, where references are not read, or with a line
// too long for 7bit, goes quoted-printable as it was.
func TestComposeHTMLReferences(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, html, cte, body string
	}{
		{"references", "<title>対局 42</title>\n<p>alice: c3xe5xc7 — the monkey captured, Kč 1½</p>\n",
			"7bit", "<title>&#23550;&#23616; 42</title>\n<p>alice: c3xe5xc7 &#8212; the monkey captured, K&#269; 1&#189;</p>\n"},
		{"ascii", "<p>alice: b2-b3</p>\n", "7bit", "<p>alice: b2-b3</p>\n"},
		{"style", "<style>.x::before { content: \"—\" }</style>\n<p>é</p>\n", "quoted-printable",
			"<style>.x::before { content: \"—\" }</style>\n<p>é</p>\n"},
		{"long line", "<p>" + strings.Repeat("é", 500) + "</p>\n", "quoted-printable", "<p>" + strings.Repeat("é", 500) + "</p>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, _, err := mailmsg.Compose(mailmsg.Outgoing{From: "congo@example.net", To: "alice@example.org",
				Subject: "s", Text: "t\n", HTML: tc.html}, "example.net")
			if err != nil {
				t.Fatal(err)
			}
			checkWireFormat(t, raw)
			msg, err := mail.ReadMessage(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			_, params, _ := mime.ParseMediaType(msg.Header.Get("Content-Type"))
			r := multipart.NewReader(msg.Body, params["boundary"])
			if _, err := r.NextRawPart(); err != nil {
				t.Fatal(err)
			}
			p, err := r.NextRawPart()
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Header.Get("Content-Transfer-Encoding"); got != tc.cte {
				t.Errorf("Content-Transfer-Encoding = %q, want %q", got, tc.cte)
			}
			var body io.Reader = p
			if tc.cte == "quoted-printable" {
				body = quotedprintable.NewReader(p)
			}
			got, err := io.ReadAll(body)
			if err != nil {
				t.Fatal(err)
			}
			if s := strings.ReplaceAll(string(got), "\r\n", "\n"); s != tc.body {
				t.Errorf("HTML part = %q, want %q", s, tc.body)
			}
		})
	}
}
