package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/congobymail/congo/account"
	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// TestUnprovenCommandsAreNotApplied sends every command that changes
// something from a player's registered address, but not to the personal
// address: nothing may change, the opponent hears nothing, and the player
// is told, at the registered address, how to send from the personal one.
func TestUnprovenCommandsAreNotApplied(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(w *servertest.World) (from, body string)
	}{
		{"newkey", func(w *servertest.World) (string, string) { return "alice", "newkey" }},
		{"challenge", func(w *servertest.World) (string, string) { return "alice", "challenge congo bob" }},
		{"accept", func(w *servertest.World) (string, string) {
			w.SendProven("alice", "challenge congo bob")
			w.Deliver()
			return "bob", "accept congo 1"
		}},
		{"decline", func(w *servertest.World) (string, string) {
			w.SendProven("alice", "challenge congo bob")
			w.Deliver()
			return "bob", "decline congo 1"
		}},
		{"move", func(w *servertest.World) (string, string) {
			w.StartGame("alice", "bob")
			return "alice", "move congo 1 b2-b3"
		}},
		{"resign", func(w *servertest.World) (string, string) {
			w.StartGame("alice", "bob")
			return "alice", "resign congo 1"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := servertest.New(t, server.Config{})
			w.Register("alice", "bob")
			from, body := tt.setup(w)
			before := snapshot(t, w)

			m := w.Mail(from, "", body)
			m.HeaderRecipients = []string{servertest.ServerAddress, "congo+" + strings.Repeat("a", account.SecretLen) + "@example.org"}
			w.Process(m)

			mails := w.Deliver()
			if len(mails) != 1 {
				t.Fatalf("%d mails sent, want 1 (the answer to %s)", len(mails), from)
			}
			reply := servertest.Only(t, mails, from)
			servertest.WantText(t, reply, "did not come to your personal address", body, w.Personal(from))
			if reply.ReplyTo != w.Personal(from) {
				t.Errorf("Reply-To = %q, want the personal address %q", reply.ReplyTo, w.Personal(from))
			}
			if after := snapshot(t, w); after != before {
				t.Errorf("unproven %q changed the database:\nbefore %s\nafter  %s", body, before, after)
			}
		})
	}
}

// snapshot describes the players and games, to see whether they changed.
func snapshot(t *testing.T, w *servertest.World) string {
	t.Helper()
	var b strings.Builder
	for _, p := range []string{"alice", "bob"} {
		fmt.Fprintf(&b, "%s:%s ", p, w.Player(p).Secret)
	}
	for id := int64(1); id <= 3; id++ {
		var g db.Game
		w.InTx(func(ctx context.Context, tx *db.Tx) error {
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
	t.Parallel()
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
			t.Parallel()
			w := servertest.New(t, server.Config{})
			w.Register("alice", "bob")
			raw := "From: Alice <alice@players.example>\r\n" +
				tt.header(w.Personal("alice")) +
				fmt.Sprintf("Message-ID: <raw%d@players.example>\r\n", i) +
				"Subject: a challenge\r\n" +
				"\r\n" +
				"challenge congo bob\r\n"
			m, err := mailmsg.Parse([]byte(raw))
			if err != nil {
				t.Fatalf("mailmsg.Parse: %v", err)
			}
			w.Process(m)
			mails := w.Deliver()
			if got := len(servertest.To(mails, "bob")) == 1; got != tt.proven {
				t.Errorf("challenge with %s: proven %v, want %v", tt.name, got, tt.proven)
			}
		})
	}
}

// TestAuthenticatedMailIsObeyed checks that a trusted server's word stands
// in for the personal address.
func TestAuthenticatedMailIsObeyed(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{TrustAuthServ: "mx.example.org"}})
	w.Register("alice", "bob")
	m := w.Mail("alice", "", "challenge congo bob")
	m.AuthResults = []string{"mx.example.org; dmarc=pass header.from=players.example"}
	w.Process(m)
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "alice challenges you")

	// A DKIM pass for the From domain, without DMARC, proves nothing.
	m = w.Mail("alice", "", "challenge congo bob")
	m.AuthResults = []string{"mx.example.org; dkim=pass header.d=players.example"}
	w.Process(m)
	for _, r := range w.Deliver() {
		if r.To != congotest.Address("alice") {
			t.Errorf("a mail with dkim=pass alone reached %s: %q", r.To, r.Subject)
		}
	}
}

// TestSeveralFromProveNothing checks that a mail with more than one From
// address is never taken as proof of its first one.
func TestSeveralFromProveNothing(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{TrustAuthServ: "mx.example.org"}})
	w.Register("alice", "bob")
	m := w.Mail("alice", "", "challenge congo bob")
	m.FromCount = 2
	m.HeaderRecipients = []string{w.Personal("alice")}
	m.AuthResults = []string{"mx.example.org; dmarc=pass header.from=players.example"}
	w.Process(m)
	for _, r := range w.Deliver() {
		if r.To != congotest.Address("alice") {
			t.Errorf("a mail with two From addresses reached %s: %q", r.To, r.Subject)
		}
	}
}

// TestOperatorCommandsNeedTheOperator: the operator's commands from
// anyone else, even proven, are no commands at all.
func TestOperatorCommandsNeedTheOperator(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{Operator: congotest.Address("oper")}})
	w.Register("oper", "alice", "bob")
	w.SendProven("alice", "ban bob")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), `unknown command "ban"`)
	if w.Banned("bob") {
		t.Errorf("alice, not the operator, banned bob")
	}
	w.Send("oper", "ban bob") // the operator's address, but not proven
	w.Deliver()
	if w.Banned("bob") {
		t.Errorf("a mail from the operator's address that proves nothing banned bob")
	}
	w.SendProven("oper", "ban bob")
	w.Deliver()
	if !w.Banned("bob") {
		t.Errorf("the operator's proven mail did not ban bob")
	}
}
