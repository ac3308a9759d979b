package server

import (
	"context"
	"fmt"
	"github.com/congobymail/congo/account"
	"github.com/congobymail/congo/config"
	"strings"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
)

// TestUnprovenCommandsAreNotApplied sends every command that changes
// something from a player's registered address, but not to the personal
// address: nothing may change, the opponent hears nothing, and the player
// is told, at the registered address, how to send from the personal one.
func TestUnprovenCommandsAreNotApplied(t *testing.T) {
	tests := []struct {
		name  string
		setup func(h *harness) (from, body string)
	}{
		{"newkey", func(h *harness) (string, string) { return "alice", "newkey" }},
		{"challenge", func(h *harness) (string, string) { return "alice", "challenge congo bob" }},
		{"accept", func(h *harness) (string, string) {
			h.sendProven("alice", "challenge congo bob")
			h.deliver()
			return "bob", "accept congo 1"
		}},
		{"decline", func(h *harness) (string, string) {
			h.sendProven("alice", "challenge congo bob")
			h.deliver()
			return "bob", "decline congo 1"
		}},
		{"move", func(h *harness) (string, string) {
			h.startGame("alice", "bob")
			return "alice", "move congo 1 b2-b3"
		}},
		{"resign", func(h *harness) (string, string) {
			h.startGame("alice", "bob")
			return "alice", "resign congo 1"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.register("alice", "bob")
			from, body := tt.setup(h)
			before := h.snapshot()

			m := h.mail(from, "", body)
			m.HeaderRecipients = []string{ourAddress, "congo+" + strings.Repeat("a", account.SecretLen) + "@example.org"}
			h.handle(m)

			mails := h.deliver()
			if len(mails) != 1 {
				t.Fatalf("%d mails sent, want 1 (the answer to %s)", len(mails), from)
			}
			reply := only(t, mails, from)
			wantText(t, reply, "did not come to your personal address", body, h.personal(from))
			if reply.ReplyTo != h.personal(from) {
				t.Errorf("Reply-To = %q, want the personal address %q", reply.ReplyTo, h.personal(from))
			}
			if after := h.snapshot(); after != before {
				t.Errorf("unproven %q changed the database:\nbefore %s\nafter  %s", body, before, after)
			}
		})
	}
}

// snapshot describes the players and games, to see whether they changed.
func (h *harness) snapshot() string {
	h.t.Helper()
	var b strings.Builder
	for _, p := range []string{"alice", "bob"} {
		fmt.Fprintf(&b, "%s:%s ", p, h.player(p).Secret)
	}
	for id := int64(1); id <= 3; id++ {
		var g db.Game
		h.inTx(func(ctx context.Context, tx *db.Tx) error {
			g, _ = tx.Game(ctx, id)
			return nil
		})
		fmt.Fprintf(&b, "game %d %v %s %v; ", g.ID, g.Status, g.Position, g.Result)
	}
	return b.String()
}

// TestPersonalAddressHeaders reads real mails whose personal address
// stands in To, Cc or Delivered-To, in any case.
func TestPersonalAddressHeaders(t *testing.T) {
	tests := []struct {
		name   string
		header func(personal string) string
		proven bool
	}{
		{"To", func(p string) string { return "To: <" + p + ">\r\n" }, true},
		{"To with a name", func(p string) string { return "To: Congo <" + p + ">, other@example.com\r\n" }, true},
		{"Cc", func(p string) string { return "To: congo@example.org\r\nCc: " + p + "\r\n" }, true},
		{"Delivered-To", func(p string) string { return "Delivered-To: " + p + "\r\nTo: undisclosed-recipients:;\r\n" }, true},
		{"upper case", func(p string) string { return "To: " + strings.ToUpper(p) + "\r\n" }, true},
		{"plain address", func(p string) string { return "To: congo@example.org\r\n" }, false},
		{"wrong secret", func(p string) string {
			return "To: congo+" + strings.Repeat("b", account.SecretLen) + "@example.org\r\n"
		}, false},
		{"other domain", func(p string) string { return "To: " + strings.Replace(p, "example.org", "example.com", 1) + "\r\n" }, false},
		{"other local part", func(p string) string { return "To: " + strings.Replace(p, "congo+", "chess+", 1) + "\r\n" }, false},
		{"secret in the name only", func(p string) string { return "To: \"" + p + "\" <congo@example.org>\r\n" }, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.register("alice", "bob")
			raw := "From: Alice <alice@players.example>\r\n" +
				tt.header(h.personal("alice")) +
				fmt.Sprintf("Message-ID: <raw%d@players.example>\r\n", i) +
				"Subject: a challenge\r\n" +
				"\r\n" +
				"challenge congo bob\r\n"
			m, err := mailmsg.Parse([]byte(raw))
			if err != nil {
				t.Fatalf("mailmsg.Parse: %v", err)
			}
			h.handle(m)
			mails := h.deliver()
			if got := len(to(mails, "bob")) == 1; got != tt.proven {
				t.Errorf("challenge with %s: proven %v, want %v", tt.name, got, tt.proven)
			}
		})
	}
}

// TestAuthenticatedMailIsObeyed checks that a trusted server's word stands
// in for the personal address.
func TestAuthenticatedMailIsObeyed(t *testing.T) {
	h := newHarnessWith(t, Config{Settings: config.Settings{TrustAuthServ: "mx.example.org"}})
	h.register("alice", "bob")
	m := h.mail("alice", "", "challenge congo bob")
	m.AuthResults = []string{"mx.example.org; dmarc=pass header.from=players.example"}
	h.handle(m)
	wantText(t, only(t, h.deliver(), "bob"), "alice challenges you")

	// A DKIM pass for the From domain, without DMARC, proves nothing.
	m = h.mail("alice", "", "challenge congo bob")
	m.AuthResults = []string{"mx.example.org; dkim=pass header.d=players.example"}
	h.handle(m)
	for _, r := range h.deliver() {
		if r.To != addr("alice") {
			t.Errorf("a mail with dkim=pass alone reached %s: %q", r.To, r.Subject)
		}
	}
}

// TestSeveralFromProveNothing checks that a mail with more than one From
// address is never taken as proof of its first one.
func TestSeveralFromProveNothing(t *testing.T) {
	h := newHarnessWith(t, Config{Settings: config.Settings{TrustAuthServ: "mx.example.org"}})
	h.register("alice", "bob")
	m := h.mail("alice", "", "challenge congo bob")
	m.FromCount = 2
	m.HeaderRecipients = []string{h.personal("alice")}
	m.AuthResults = []string{"mx.example.org; dmarc=pass header.from=players.example"}
	h.handle(m)
	for _, r := range h.deliver() {
		if r.To != addr("alice") {
			t.Errorf("a mail with two From addresses reached %s: %q", r.To, r.Subject)
		}
	}
}
