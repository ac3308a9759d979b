package server

import (
	"context"
	"errors"
	"github.com/congobymail/congo/account"
	"github.com/congobymail/congo/config"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
)

var personalAddress = regexp.MustCompile(`^congo\+[a-z2-7]{26}@example\.org$`)

func TestNew(t *testing.T) {
	d, err := db.Open(context.Background(), t.TempDir()+"/congo.db")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tests := []struct {
		cfg Config
		ok  bool
	}{
		{Config{DB: d, Settings: config.Settings{Address: "congo@example.org"}}, true},
		{Config{DB: d, Settings: config.Settings{Address: "Congo@Example.org"}}, true},
		{Config{Settings: config.Settings{Address: "congo@example.org"}}, false},
		{Config{DB: d, Settings: config.Settings{Address: "congo"}}, false},
		{Config{DB: d, Settings: config.Settings{Address: "congo+x@example.org"}}, false},
		{Config{DB: d, Settings: config.Settings{Address: "@example.org"}}, false},
		{Config{DB: d, Settings: config.Settings{Address: "Congo <congo@example.org>"}}, false},
	}
	for _, tt := range tests {
		_, err := New(tt.cfg)
		if (err == nil) != tt.ok {
			t.Errorf("New(Address %q, DB set %v) error = %v, want ok %v", tt.cfg.Address, tt.cfg.DB != nil, err, tt.ok)
		}
	}
}

func TestRegister(t *testing.T) {
	h := newHarness(t)
	h.send("alice", "register alice")
	welcome := only(t, h.deliver(), "alice")
	wantText(t, welcome, "Welcome to Congo, alice!")
	personal := h.personal("alice")
	if !personalAddress.MatchString(personal) {
		t.Errorf("personal address %q is not congo+<26 base32 characters>@example.org", personal)
	}
	if welcome.ReplyTo != personal {
		t.Errorf("Reply-To of the welcome = %q, want the personal address %q", welcome.ReplyTo, personal)
	}
	wantText(t, welcome, personal)
	if welcome.Subject != "Welcome to Congo, alice" {
		t.Errorf("Subject of the answer to a mail without one = %q, want %q", welcome.Subject, "Welcome to Congo, alice")
	}
	h.sendProven("alice", "help") // confirms the address: the handle is hers for good (M56)
	h.deliver()

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
			h.clock.Advance(25 * time.Hour) // each address is answered once a day (M28)
			h.send(tt.from, tt.body)
			reply := only(t, h.deliver(), tt.from)
			wantText(t, reply, tt.want...)
			var got string
			h.inTx(func(ctx context.Context, tx *db.Tx) error {
				p, err := tx.PlayerByAddress(ctx, addr(tt.from))
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
	if got := h.personal("alice"); got != personal {
		t.Errorf("registering again changed the personal address from %q to %q", personal, got)
	}
}

func TestUnknownSender(t *testing.T) {
	h := newHarness(t)
	h.register("bob")
	tests := []struct {
		name, body string
		want       []string
		unwanted   []string
	}{
		{"challenge", "challenge congo bob", []string{"not registered", "challenge congo bob", "register alice"}, nil},
		{"games", "games", []string{"not registered", "games"}, nil},
		{"move", "move congo 1 b2-b3", []string{"not registered"}, nil},
		{"help", "help", []string{"CONGO BY MAIL", "challenge congo bob black"}, []string{"not registered"}},
		{"empty", "", []string{"not registered", "register alice"}, nil},
		{"gibberish", "hello there", []string{"> hello there", "not registered"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.clock.Advance(25 * time.Hour) // a stranger is answered once a day (M28)
			h.send("stranger", tt.body)
			reply := only(t, h.deliver(), "stranger")
			wantText(t, reply, tt.want...)
			wantNoText(t, reply, tt.unwanted...)
			if reply.ReplyTo != "" {
				t.Errorf("a mail to a stranger has Reply-To %q", reply.ReplyTo)
			}
		})
	}
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.Game(ctx, 1); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("a stranger's challenge made game 1 (err %v)", err)
		}
		return nil
	})
}

func TestNewKey(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	old := h.personal("alice")

	h.sendProven("alice", "newkey")
	reply := only(t, h.deliver(), "alice")
	fresh := h.personal("alice")
	if fresh == old || !personalAddress.MatchString(fresh) {
		t.Fatalf("newkey: personal address %q -> %q, want a new one", old, fresh)
	}
	wantText(t, reply, fresh)
	if reply.ReplyTo != fresh {
		t.Errorf("Reply-To of the newkey answer = %q, want the new address %q", reply.ReplyTo, fresh)
	}

	// The old address no longer proves anything.
	m := h.mail("alice", "", "challenge congo bob")
	m.HeaderRecipients = []string{old}
	h.handle(m)
	mails := h.deliver()
	wantText(t, only(t, mails, "alice"), "did not come to your personal address", fresh)
	if len(to(mails, "bob")) != 0 {
		t.Errorf("a challenge sent to the old address reached bob")
	}

	h.sendProven("alice", "challenge congo bob")
	only(t, h.deliver(), "bob")
}

func TestNewKeyIsNotApplied(t *testing.T) {
	h := newHarness(t)
	h.register("alice")
	before := h.personal("alice")
	h.send("alice", "newkey")
	wantText(t, only(t, h.deliver(), "alice"), "did not come to your personal address")
	if after := h.personal("alice"); after != before {
		t.Errorf("an unproven newkey changed the personal address")
	}
}

func TestSecretsDiffer(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	a, b := h.player("alice").Secret, h.player("bob").Secret
	if a == b || len(a) != account.SecretLen || strings.Trim(a, "abcdefghijklmnopqrstuvwxyz234567") != "" {
		t.Errorf("secrets %q and %q: want two different ones of %d lowercase base32 characters", a, b, account.SecretLen)
	}
}

// TestProvisionalRegistrationReleased (M56): a registration never
// confirmed holds its handle for a day; after it, whoever registers the
// handle (or one like it) takes it, and the provisional one is gone.
func TestProvisionalRegistrationReleased(t *testing.T) {
	h := newHarness(t)
	h.send("mallory", "register magnus") // forged, say: never confirmed
	h.deliver()
	h.clock.Advance(23 * time.Hour)
	h.send("carlsen", "register Magnus")
	wantText(t, only(t, h.deliver(), "carlsen"), "The handle Magnus is taken")
	h.clock.Advance(2 * time.Hour)
	h.send("carlsen", "register rnagnus") // looks like magnus: rn and m
	wantText(t, only(t, h.deliver(), "carlsen"), "Welcome to Congo, rnagnus!")
	if p := h.player("rnagnus"); p.Address != addr("carlsen") {
		t.Errorf("rnagnus is registered at %s, want carlsen's address", p.Address)
	}
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.PlayerByHandle(ctx, "magnus"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("the provisional magnus: %v, want it released", err)
		}
		return nil
	})
}
