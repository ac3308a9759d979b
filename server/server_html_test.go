package server

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"slices"
	"testing"
)

// partsOf returns the content types of a mail's parts, or of the mail
// itself when it has one part.
func partsOf(t *testing.T, raw []byte) []string {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	kind, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	if kind != "multipart/alternative" {
		return []string{kind}
	}
	var kinds []string
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextPart()
		if err != nil {
			break
		}
		k, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		kinds = append(kinds, k)
	}
	return kinds
}

// htmlOf returns a mail's text/html part, decoded; "" for none.
func htmlOf(t *testing.T, raw []byte) string {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextPart() // decodes quoted-printable
		if err != nil {
			return ""
		}
		if k, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); k == "text/html" {
			b, err := io.ReadAll(p)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
}

// sendRaw sends the due outbox and returns the mails as sent.
func (h *harness) sendRaw() []sentMail {
	h.t.Helper()
	h.sendAll()
	return h.sink.take()
}

func TestBoardMailsHaveHTML(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.sendProven("alice", "challenge congo bob")
	for _, m := range h.sendRaw() { // the challenge shows no board
		if got := partsOf(t, m.raw); !slices.Equal(got, []string{"text/plain"}) {
			t.Errorf("challenge mail to %s: parts %q, want text/plain only", m.to, got)
		}
	}
	h.sendProven("bob", "accept congo 1")
	h.sendProven("alice", "move congo 1 b2-b3")
	h.sendProven("bob", "board congo 1")
	mails := h.sendRaw()
	if len(mails) != 5 {
		t.Fatalf("%d mails, want 5 (the start and the move to both, the board to bob)", len(mails))
	}
	for _, m := range mails {
		if got := partsOf(t, m.raw); !slices.Equal(got, []string{"text/plain", "text/html"}) {
			t.Errorf("board mail to %s: parts %q, want text/plain then text/html (M12)", m.to, got)
		}
	}
	h.send("bob", "games")
	for _, m := range h.sendRaw() { // an answer shows no board table
		if got := partsOf(t, m.raw); !slices.Equal(got, []string{"text/plain"}) {
			t.Errorf("games answer to %s: parts %q, want text/plain only", m.to, got)
		}
	}
}
