package congotest

import (
	"context"
	"testing"

	"github.com/congobymail/congo/mailer/loopback"
)

// StartMail starts the loopback mail servers (mailer/loopback) of cfg
// for the test, and stops them when it ends. Without cfg.Users, the one
// user is congo, with the password "pw"; without cfg.Domain, the domain
// is example.org.
func StartMail(t testing.TB, cfg loopback.Config) *loopback.System {
	t.Helper()
	if len(cfg.Users) == 0 {
		cfg.Users = Users("congo")
	}
	sys, err := loopback.Start(context.Background(), cfg)
	if err != nil {
		t.Fatalf("loopback.Start: %v", err)
	}
	t.Cleanup(sys.Close)
	return sys
}

// Users are the mail users of the names, each with the password "pw".
func Users(names ...string) []loopback.User {
	users := make([]loopback.User, len(names))
	for i, n := range names {
		users[i] = loopback.User{Name: n, Password: "pw"}
	}
	return users
}
