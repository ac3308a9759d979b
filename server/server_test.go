package server_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

func TestNew(t *testing.T) {
	t.Parallel()
	d := congotest.NewDB(t)
	tests := []struct {
		cfg server.Config
		ok  bool
	}{
		{server.Config{DB: d, Settings: config.Settings{Address: "congo@example.org"}}, true},
		{server.Config{DB: d, Settings: config.Settings{Address: "Congo@Example.org"}}, true},
		{server.Config{Settings: config.Settings{Address: "congo@example.org"}}, false},
		{server.Config{DB: d, Settings: config.Settings{Address: "congo"}}, false},
		{server.Config{DB: d, Settings: config.Settings{Address: "congo+x@example.org"}}, false},
		{server.Config{DB: d, Settings: config.Settings{Address: "@example.org"}}, false},
		{server.Config{DB: d, Settings: config.Settings{Address: "Congo <congo@example.org>"}}, false},
	}
	for _, tt := range tests {
		_, err := server.New(tt.cfg)
		if (err == nil) != tt.ok {
			t.Errorf("New(Address %q, DB set %v) error = %v, want ok %v", tt.cfg.Address, tt.cfg.DB != nil, err, tt.ok)
		}
	}
}

func TestUnknownSender(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("bob")
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
			w.Clock.Advance(25 * time.Hour) // a stranger is answered once a day (M28)
			w.Send("stranger", tt.body)
			reply := servertest.Only(t, w.Deliver(), "stranger")
			servertest.WantText(t, reply, tt.want...)
			servertest.WantNoText(t, reply, tt.unwanted...)
			if reply.ReplyTo != "" {
				t.Errorf("a mail to a stranger has Reply-To %q", reply.ReplyTo)
			}
		})
	}
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.Game(ctx, 1); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("a stranger's challenge made game 1 (err %v)", err)
		}
		return nil
	})
}
