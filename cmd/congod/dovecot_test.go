package main

import (
	"context"
	"github.com/congobymail/congo/config"
	"path/filepath"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/dovecottest"
)

// dovecotSystem is a Dovecot with an SMTP server in front of it.
type dovecotSystem struct {
	d    *dovecottest.Server
	smtp *dovecottest.SMTP
}

func (s dovecotSystem) Deliver(_ context.Context, from string, to []string, raw []byte) error {
	return s.smtp.Deliver(from, to, raw)
}

func (s dovecotSystem) Messages(name, mailbox string) ([][]byte, error) {
	return s.d.Messages(name, mailbox)
}

// TestEndToEndDovecot plays the game of TestEndToEnd against a real IMAP
// server, Dovecot, over each kind of connection, the daemon trusting the
// test's CA (-ca-file); it sends through an SMTP server that demands TLS
// and AUTH and delivers into Dovecot.
func TestEndToEndDovecot(t *testing.T) {
	tests := []struct {
		imap, smtp string
	}{
		{"imap", "smtp+starttls"},
		{"imaps", "smtps"},
		{"imap+starttls", "smtp+starttls"},
	}
	for _, tt := range tests {
		t.Run(tt.imap+","+tt.smtp, func(t *testing.T) {
			d := dovecottest.Start(t, dovecottest.Config{
				TLS: true,
				Users: []dovecottest.User{
					{Name: "congo", Password: "congo-pw"},
					{Name: "alice", Password: "alice-pw"},
					{Name: "bob", Password: "bob-pw"},
				},
			})
			sys := dovecotSystem{d: d, smtp: d.StartSMTP(t)}
			cfg := &settings{Settings: config.Settings{
				IMAP:      d.URL(tt.imap, "congo", "INBOX"),
				SMTP:      sys.smtp.URL(tt.smtp, "congo"),
				CAFile:    d.CAFile,
				Address:   "congo@example.org",
				DB:        filepath.Join(t.TempDir(), "congo.db"),
				Poll:      100 * time.Millisecond,
				Processed: "Processed",
				LogLevel:  "info",
			}}
			ctx, cancel := context.WithCancel(context.Background())
			playGame(t, runWorld(ctx, cancel, t, sys, cfg))
		})
	}
}
