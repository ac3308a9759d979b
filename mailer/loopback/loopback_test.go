package loopback_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/mailer/loopback"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

func start(t *testing.T, cfg loopback.Config) *loopback.System {
	t.Helper()
	if cfg.Users == nil {
		cfg.Users = []loopback.User{{Name: "congo", Password: "pw-congo"}, {Name: "alice", Password: "pw-alice"}}
	}
	sys, err := loopback.Start(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Start(%+v) error = %v", cfg, err)
	}
	t.Cleanup(sys.Close)
	return sys
}

const mail = "From: alice@example.org\r\nTo: congo@example.org\r\nSubject: games\r\n\r\ngames\r\n"

func TestDeliver(t *testing.T) {
	t.Parallel()
	sys := start(t, loopback.Config{})
	ctx := context.Background()
	tests := []struct {
		to          string
		user        string // whose INBOX gets it
		wantRefused bool
	}{
		{to: "congo@example.org", user: "congo"},
		{to: "congo+k3x9q2@example.org", user: "congo"},
		{to: "Alice@EXAMPLE.org", user: "alice"},
		{to: "nobody@example.org", wantRefused: true},
		{to: "congo@elsewhere.example", wantRefused: true},
	}
	count := map[string]int{}
	for _, tt := range tests {
		err := sys.Deliver(ctx, "alice@example.org", []string{tt.to}, []byte(mail))
		if tt.wantRefused {
			var se *smtp.SMTPError
			if !errors.As(err, &se) || se.Code != 550 {
				t.Errorf("Deliver(to %s) error = %v, want a 550 refusal", tt.to, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Deliver(to %s) error = %v", tt.to, err)
		}
		count[tt.user]++
		msgs, err := sys.Messages(tt.user, "INBOX")
		if err != nil {
			t.Fatalf("Messages(%s, INBOX) error = %v", tt.user, err)
		}
		if len(msgs) != count[tt.user] {
			t.Fatalf("Messages(%s, INBOX) has %d messages, want %d", tt.user, len(msgs), count[tt.user])
		}
		want := "Return-Path: <alice@example.org>\r\nDelivered-To: " + tt.to + "\r\n" + mail
		if got := string(msgs[len(msgs)-1]); got != want {
			t.Errorf("Deliver(to %s) stored %q, want %q", tt.to, got, want)
		}
	}
}

func TestDeliverBounce(t *testing.T) {
	t.Parallel()
	sys := start(t, loopback.Config{})
	if err := sys.Deliver(context.Background(), "", []string{"congo@example.org"}, []byte(mail)); err != nil {
		t.Fatalf("Deliver(from <>) error = %v", err)
	}
	msgs, err := sys.Messages("congo", "INBOX")
	if err != nil || len(msgs) != 1 {
		t.Fatalf("Messages(congo, INBOX) = %d messages, %v; want 1", len(msgs), err)
	}
	if !bytes.HasPrefix(msgs[0], []byte("Return-Path: <>\r\n")) {
		t.Errorf("bounce stored as %q, want it to start with an empty Return-Path", msgs[0])
	}
}

func TestSMTPAuth(t *testing.T) {
	t.Parallel()
	sys := start(t, loopback.Config{})
	tests := []struct {
		user, password string
		wantErr        bool
	}{
		{"congo", "pw-congo", false},
		{"congo@example.org", "pw-congo", false},
		{"congo", "wrong", true},
		{"nobody", "pw-congo", true},
	}
	for _, tt := range tests {
		c, err := smtp.Dial(sys.SMTPAddr)
		if err != nil {
			t.Fatal(err)
		}
		err = c.Auth(sasl.NewPlainClient("", tt.user, tt.password))
		c.Close()
		if (err != nil) != tt.wantErr {
			t.Errorf("AUTH PLAIN %s/%s error = %v, want error %v", tt.user, tt.password, err, tt.wantErr)
		}
	}
}

// caps logs in over IMAP and returns the capabilities offered.
func caps(t *testing.T, sys *loopback.System, user, password string) imap.CapSet {
	t.Helper()
	c, err := imapclient.DialInsecure(sys.IMAPAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, password).Wait(); err != nil {
		t.Fatalf("Login(%s) error = %v", user, err)
	}
	return c.Caps()
}

func TestIMAPCapabilities(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cfg                   loopback.Config
		wantMove, wantUIDPlus bool
	}{
		{loopback.Config{}, true, true},
		{loopback.Config{NoMove: true}, false, true},
		{loopback.Config{NoMove: true, NoUIDPlus: true}, false, false},
	}
	for _, tt := range tests {
		sys := start(t, tt.cfg)
		got := caps(t, sys, "congo", "pw-congo")
		if got.Has(imap.CapMove) != tt.wantMove || got.Has(imap.CapUIDPlus) != tt.wantUIDPlus || !got.Has(imap.CapIdle) {
			t.Errorf("Config{NoMove: %v, NoUIDPlus: %v} offers %v; want MOVE %v, UIDPLUS %v, IDLE",
				tt.cfg.NoMove, tt.cfg.NoUIDPlus, got, tt.wantMove, tt.wantUIDPlus)
		}
	}
}

func TestIMAPURL(t *testing.T) {
	t.Parallel()
	sys := start(t, loopback.Config{Domain: "pbm.example.net", Users: []loopback.User{{Name: "congo", Password: "p@ss word"}}})
	want := "imap://congo:p%40ss%20word@" + sys.IMAPAddr + "/INBOX"
	if got := sys.IMAPURL("congo"); got != want {
		t.Errorf("IMAPURL(congo) = %q, want %q", got, want)
	}
	if got := sys.IMAPURL("nobody"); got != "" {
		t.Errorf("IMAPURL(nobody) = %q, want \"\"", got)
	}
	if got, want := sys.SMTPURL(), "smtp://"+sys.SMTPAddr; got != want {
		t.Errorf("SMTPURL() = %q, want %q", got, want)
	}
	if got, want := sys.Address("congo"), "congo@pbm.example.net"; got != want {
		t.Errorf("Address(congo) = %q, want %q", got, want)
	}
	// The password with its special characters logs in.
	caps(t, sys, "congo", "p@ss word")
}

func TestFetchFlags(t *testing.T) {
	t.Parallel()
	sys := start(t, loopback.Config{})
	ctx := context.Background()
	for range 2 {
		if err := sys.Deliver(ctx, "alice@example.org", []string{"congo@example.org"}, []byte(mail)); err != nil {
			t.Fatal(err)
		}
	}
	c, err := imapclient.DialInsecure(sys.IMAPAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("congo", "pw-congo").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(2), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	msgs, err := sys.Fetch(ctx, "congo", "INBOX")
	if err != nil {
		t.Fatalf("Fetch(congo, INBOX) error = %v", err)
	}
	if len(msgs) != 2 {
		t.Fatalf("Fetch(congo, INBOX) = %d messages, want 2", len(msgs))
	}
	for i, m := range msgs {
		wantSeen := m.UID == 2
		if got := slices.Contains(m.Flags, imap.FlagSeen); got != wantSeen {
			t.Errorf("message %d (UID %d) seen = %v, want %v", i, m.UID, got, wantSeen)
		}
	}
	if _, err := sys.Fetch(ctx, "congo", "Nonexistent"); err == nil {
		t.Errorf("Fetch(congo, Nonexistent) error = nil, want an error")
	}
	if _, err := sys.Fetch(ctx, "nobody", "INBOX"); err == nil {
		t.Errorf("Fetch(nobody, INBOX) error = nil, want an error")
	}
}

func TestStartRefusesBadUsers(t *testing.T) {
	t.Parallel()
	for _, users := range [][]loopback.User{
		{{Name: ""}},
		{{Name: "a+b"}},
		{{Name: "a@b"}},
		{{Name: "congo"}, {Name: "Congo"}},
	} {
		if sys, err := loopback.Start(context.Background(), loopback.Config{Users: users}); err == nil {
			sys.Close()
			t.Errorf("Start(users %+v) error = nil, want an error", users)
		}
	}
}

func TestStopsWhenContextEnds(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	sys, err := loopback.Start(ctx, loopback.Config{Users: []loopback.User{{Name: "congo"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", sys.SMTPAddr, time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("SMTP server still listening 5s after its context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := net.DialTimeout("tcp", sys.IMAPAddr, time.Second); err == nil {
		t.Errorf("IMAP server still listening after its context ended")
	}
}

func TestFixedAddresses(t *testing.T) {
	// Take two free ports, free them, and ask for them.
	var addrs []string
	for range 2 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addrs = append(addrs, ln.Addr().String())
		ln.Close()
	}
	sys := start(t, loopback.Config{IMAPAddr: addrs[0], SMTPAddr: addrs[1]})
	if sys.IMAPAddr != addrs[0] || sys.SMTPAddr != addrs[1] {
		t.Errorf("Start at %v: IMAPAddr %s, SMTPAddr %s", addrs, sys.IMAPAddr, sys.SMTPAddr)
	}
	if !strings.HasPrefix(sys.IMAPURL("congo"), "imap://congo:pw-congo@"+addrs[0]) {
		t.Errorf("IMAPURL(congo) = %q, want it at %s", sys.IMAPURL("congo"), addrs[0])
	}
}
