package account_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/account"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

var personalAddress = regexp.MustCompile(`^congo\+[a-z2-7]{26}@example\.org$`)

func TestRegister(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Send("alice", "register alice")
	welcome := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantText(t, welcome, "Welcome to Congo, alice!")
	personal := w.Personal("alice")
	if !personalAddress.MatchString(personal) {
		t.Errorf("personal address %q is not congo+<26 base32 characters>@example.org", personal)
	}
	if welcome.ReplyTo != personal {
		t.Errorf("Reply-To of the welcome = %q, want the personal address %q", welcome.ReplyTo, personal)
	}
	servertest.WantText(t, welcome, personal)
	if welcome.Subject != "Welcome to Congo, alice" {
		t.Errorf("Subject of the answer to a mail without one = %q, want %q", welcome.Subject, "Welcome to Congo, alice")
	}
	w.SendProven("alice", "help") // confirms the address: the handle is hers for good (M56)
	w.Deliver()

	tests := []struct {
		name, from, body string
		want             []string // in the reply
		handle           string   // the handle registered at from afterwards; "" for none
	}{
		{"taken handle", "carol", "register alice", []string{"taken"}, ""},
		{"taken handle ignoring case", "carol", "register ALICE", []string{"taken"}, ""},
		{"bad handle", "carol", "register a", nil, ""},
		{"bad handle characters", "carol", "register al!ce", nil, ""},
		{"again from the same address", "alice", "register alicia", []string{"registered already, as alice", personal, "rename <handle>"}, "alice"},
		{"another player", "bob", "register bob", []string{"Welcome to Congo, bob!"}, "bob"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.Clock.Advance(25 * time.Hour) // each address is answered once a day (M28)
			w.Send(tt.from, tt.body)
			reply := servertest.Only(t, w.Deliver(), tt.from)
			servertest.WantText(t, reply, tt.want...)
			var got string
			w.InTx(func(ctx context.Context, tx *db.Tx) error {
				p, err := tx.PlayerByAddress(ctx, congotest.Address(tt.from))
				if errors.Is(err, db.ErrNotFound) {
					return nil
				}
				got = p.Handle
				return err
			})
			if got != tt.handle {
				t.Errorf("after %q from %s, the handle there is %q, want %q", tt.body, tt.from, got, tt.handle)
			}
		})
	}
	if got := w.Personal("alice"); got != personal {
		t.Errorf("registering again changed the personal address from %q to %q", personal, got)
	}
}

func TestNewKey(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	old := w.Personal("alice")

	w.SendProven("alice", "newkey")
	reply := servertest.Only(t, w.Deliver(), "alice")
	fresh := w.Personal("alice")
	if fresh == old || !personalAddress.MatchString(fresh) {
		t.Fatalf("newkey: personal address %q -> %q, want a new one", old, fresh)
	}
	servertest.WantText(t, reply, fresh)
	if reply.ReplyTo != fresh {
		t.Errorf("Reply-To of the newkey answer = %q, want the new address %q", reply.ReplyTo, fresh)
	}

	// The old address no longer proves anything.
	m := w.Mail("alice", "", "challenge congo bob")
	m.HeaderRecipients = []string{old}
	w.Process(m)
	mails := w.Deliver()
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "did not come to your personal address", fresh)
	if len(servertest.To(mails, "bob")) != 0 {
		t.Errorf("a challenge sent to the old address reached bob")
	}

	w.SendProven("alice", "challenge congo bob")
	servertest.Only(t, w.Deliver(), "bob")
}

func TestNewKeyIsNotApplied(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice")
	before := w.Personal("alice")
	w.Send("alice", "newkey")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "did not come to your personal address")
	if after := w.Personal("alice"); after != before {
		t.Errorf("an unproven newkey changed the personal address")
	}
}

func TestSecretsDiffer(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	a, b := w.Player("alice").Secret, w.Player("bob").Secret
	if a == b || len(a) != account.SecretLen || strings.Trim(a, "abcdefghijklmnopqrstuvwxyz234567") != "" {
		t.Errorf("secrets %q and %q: want two different ones of %d lowercase base32 characters", a, b, account.SecretLen)
	}
}

// TestRulesAndDrowning (M25): rules answers with the rules in plain
// words; the board mail to the player to move warns of a piece that
// drowns unless it leaves the river.
func TestRulesAndDrowning(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Send("stranger", "rules")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "stranger"), "river")
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	for _, m := range []struct{ by, move string }{{"alice", "b2-b3"}, {"bob", "b6-b5"}, {"alice", "b3-b4"}} {
		w.SendProven(m.by, "move congo 1 "+m.move)
	}
	w.Deliver()
	w.SendProven("bob", "move congo 1 a6-a5")
	mails := w.Deliver()
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "Careful: your pawn on b4 is in the river")
	servertest.WantNoText(t, servertest.Only(t, mails, "bob"), "Careful")
}

// TestProvisionalRegistrationReleased (M56): a registration never
// confirmed holds its handle for a day; after it, whoever registers the
// handle (or one like it) takes it, and the provisional one is gone.
func TestProvisionalRegistrationReleased(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Send("mallory", "register magnus") // forged, say: never confirmed
	w.Deliver()
	w.Clock.Advance(23 * time.Hour)
	w.Send("carlsen", "register Magnus")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carlsen"), "The handle Magnus is taken")
	w.Clock.Advance(2 * time.Hour)
	w.Send("carlsen", "register rnagnus") // looks like magnus: rn and m
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carlsen"), "Welcome to Congo, rnagnus!")
	if p := w.Player("rnagnus"); p.Address != congotest.Address("carlsen") {
		t.Errorf("rnagnus is registered at %s, want carlsen's address", p.Address)
	}
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.PlayerByHandle(ctx, "magnus"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("the provisional magnus: %v, want it released", err)
		}
		return nil
	})
}

// TestRegisterAgain (M56, issue 24's third finding): register sent again
// by a player who has confirmed the address is answered at once, each
// time, restating the personal address; sent again before the address is
// confirmed, the welcome comes again once a day, never more often.
func TestRegisterAgain(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Send("bob", "register bob")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "Welcome to Congo, bob!")
	personal := w.Personal("bob")

	// Not confirmed: an hour later nothing, a day later the welcome.
	w.Clock.Advance(time.Hour)
	w.Send("bob", "register bob")
	if mails := w.Deliver(); len(mails) != 0 {
		t.Errorf("register again within the day of the welcome, unconfirmed: %d mails, want none", len(mails))
	}
	w.Clock.Advance(24 * time.Hour)
	w.Send("bob", "register bob")
	again := servertest.Only(t, w.Deliver(), "bob")
	servertest.WantText(t, again, "registered already, as bob", personal)
	if again.ReplyTo != personal {
		t.Errorf("Reply-To of the welcome again = %q, want %q", again.ReplyTo, personal)
	}

	// Confirmed: answered at once, twice in a minute.
	w.Reply(again, "games")
	w.Deliver()
	for i := range 2 {
		w.Clock.Advance(30 * time.Second)
		w.Send("bob", "register bob")
		m := servertest.Only(t, w.Deliver(), "bob")
		servertest.WantText(t, m, "This address is registered already, as bob.", personal)
		servertest.WantNoText(t, m, "Welcome to Congo")
		if m.ReplyTo != personal {
			t.Errorf("answer %d: Reply-To = %q, want the personal address %q", i+1, m.ReplyTo, personal)
		}
	}
}
