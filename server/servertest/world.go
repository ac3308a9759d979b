// Package servertest is the world of mail the tests of the server and
// its rooms play in: a server.Server on a fresh database, with the
// congotest Clock and Sink, and its players' mail programs, which send
// it mail as a player does (Send, SendProven, Reply) and read what it
// sends them (Deliver). Every mail delivered is checked to show no
// player another's address or secret.
package servertest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	netmail "net/mail"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/tell"
)

// ServerAddress is the server's address; its players' are
// congotest.Address(handle).
const ServerAddress = "congo@example.org"

// World is a server on a fresh database, with a clock and a sink, and
// the players who write to it. Its fields may be changed: a test
// restarting the server sets Server (and DB) to the new one.
type World struct {
	Server *server.Server
	DB     *db.DB
	DBPath string            // the database's SQLite file
	Clock  *congotest.Clock  // the server's time, T0 at first
	Sink   *congotest.Sink   // where Deliver sends the outbox
	Logger *slog.Logger      // the server's logger
	Last   *mailmsg.Incoming // the last mail Process gave the server

	t testing.TB
	n int // mails sent to the server so far
}

// New returns a World whose server has the settings, Metrics and Rand of
// cfg; its database, address, clock and outbox are the World's, its
// Logger cfg's or one that discards.
func New(t testing.TB, cfg server.Config) *World {
	t.Helper()
	return NewWithOutbox(t, cfg, outbox.Config{})
}

// NewWithOutbox is New, whose server queues its mail in an outbox of oc
// (its database, address, clock and logger the World's).
func NewWithOutbox(t testing.TB, cfg server.Config, oc outbox.Config) *World {
	t.Helper()
	path := filepath.Join(t.TempDir(), "congo.db")
	d := congotest.OpenDB(t, path)
	c := congotest.NewClock()
	cfg.DB, cfg.Address, cfg.Now = d, ServerAddress, c.Now
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	oc.DB, oc.From, oc.Hostname, oc.Now, oc.Logger = d, ServerAddress, "example.org", c.Now, cfg.Logger
	ob, err := outbox.New(oc)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Outbox = ob
	s, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &World{Server: s, DB: d, DBPath: path, Clock: c, Sink: &congotest.Sink{}, Logger: cfg.Logger, t: t}
}

// Mail is a mail from the player with the handle to the server's
// address, which proves nothing; change it further before Process.
func (w *World) Mail(from, subject, body string) *mailmsg.Incoming {
	w.n++
	return &mailmsg.Incoming{
		UIDValidity:      1,
		UID:              uint32(w.n),
		MessageID:        fmt.Sprintf("m%d@%s", w.n, congotest.PlayersDomain),
		From:             congotest.Address(from),
		FromCount:        1,
		HeaderRecipients: []string{ServerAddress},
		Subject:          subject,
		Text:             body,
		Date:             w.Clock.Now(),
	}
}

// ProvenMail is a mail with body from a registered player to their
// personal address.
func (w *World) ProvenMail(from, body string) *mailmsg.Incoming {
	w.t.Helper()
	m := w.Mail(from, "", body)
	m.HeaderRecipients = []string{w.Personal(from)}
	return m
}

// Process gives m to the server, and fails the test if it fails.
func (w *World) Process(m *mailmsg.Incoming) {
	w.t.Helper()
	w.Last = m
	if err := w.Server.ProcessMail(context.Background(), m); err != nil {
		w.t.Fatalf("ProcessMail(%q): %v", m.Subject, err)
	}
}

// Send has the player with the handle send body to the server's plain
// address: a mail that proves nothing.
func (w *World) Send(from, body string) {
	w.t.Helper()
	w.Process(w.Mail(from, "", body))
}

// SendProven has a registered player send body to their personal
// address.
func (w *World) SendProven(from, body string) {
	w.t.Helper()
	w.Process(w.ProvenMail(from, body))
}

// Reply answers a mail the way a mail program does: to its Reply-To, in
// its thread.
func (w *World) Reply(to Received, body string) {
	w.t.Helper()
	m := w.Mail(strings.TrimSuffix(to.To, "@"+congotest.PlayersDomain), "Re: "+to.Subject, body)
	m.HeaderRecipients = []string{to.ReplyTo}
	m.InReplyTo = []string{to.MessageID}
	m.References = append(append([]string(nil), to.References...), to.MessageID)
	w.Process(m)
}

// Deliver sends the due outbox and returns what the players received,
// checking on the way that no mail shows one player another's address
// or secret.
func (w *World) Deliver() []Received {
	w.t.Helper()
	var out []Received
	for _, s := range w.SendRaw() {
		out = append(out, w.Parse(s))
	}
	return out
}

// DeliverChecked is Deliver, failing the test when a mail went to the
// robot.
func (w *World) DeliverChecked() []Received {
	w.t.Helper()
	mails := w.Deliver()
	for _, m := range mails {
		if tell.IsRobotAddress(m.To) {
			w.t.Errorf("mail %q sent to the robot at %s", m.Subject, m.To)
		}
	}
	return mails
}

// WaitMail waits for the one mail to a player, which a worker sends
// (DeliverChecked, every 10 ms for up to 20 s).
func (w *World) WaitMail(handle string) Received {
	w.t.Helper()
	var mails []Received
	congotest.WaitFor(w.t, "mail to "+handle, 20*time.Second, func() bool {
		mails = w.DeliverChecked()
		return len(mails) > 0
	})
	return Only(w.t, mails, handle)
}

// SendRaw sends the due outbox and returns the mails as sent.
func (w *World) SendRaw() []congotest.Sent {
	w.t.Helper()
	// Round after round, as a recipient's mails go one a round, in order.
	for {
		n, err := w.Server.Outbox().SendDue(context.Background(), w.Sink)
		if err != nil {
			w.t.Fatalf("SendDue: %v", err)
		}
		if n == 0 {
			return w.Sink.Take()
		}
	}
}

// Parse reads a mail sent, as its recipient's mail program does, and
// checks that it shows no other player's address or secret.
func (w *World) Parse(s congotest.Sent) Received {
	w.t.Helper()
	if s.From != ServerAddress || len(s.To) != 1 {
		w.t.Fatalf("mail sent from %q to %q, want from %q to one address", s.From, s.To, ServerAddress)
	}
	in, err := mailmsg.Parse(s.Raw)
	if err != nil {
		w.t.Fatalf("mailmsg.Parse: %v\n%s", err, s.Raw)
	}
	msg, err := netmail.ReadMessage(bytes.NewReader(s.Raw))
	if err != nil {
		w.t.Fatalf("ReadMessage: %v", err)
	}
	r := Received{Incoming: in, To: s.To[0], Header: msg.Header, Raw: s.Raw}
	if list, err := msg.Header.AddressList("Reply-To"); err == nil && len(list) == 1 {
		r.ReplyTo = list[0].Address
	}
	if to, err := msg.Header.AddressList("To"); err != nil || len(to) != 1 || !strings.EqualFold(to[0].Address, r.To) {
		w.t.Errorf("To header %v (%v) is not the envelope recipient %q", to, err, r.To)
	}
	w.checkNoLeak(r)
	return r
}

// checkNoLeak fails the test when a mail to one player holds the address
// or secret of another.
func (w *World) checkNoLeak(r Received) {
	w.t.Helper()
	text := strings.ToLower(string(r.Raw) + r.Text)
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		for i := int64(1); ; i++ {
			p, err := tx.Player(ctx, i)
			if err != nil {
				return nil
			}
			if p.Address == strings.ToLower(r.To) {
				continue
			}
			if strings.Contains(text, p.Address) || strings.Contains(text, p.Secret) {
				w.t.Errorf("mail to %s shows %s's address or secret:\n%s", r.To, p.Handle, r.Raw)
			}
		}
	})
}

// InTx runs fn in a transaction of the World's database, and fails the
// test when it fails.
func (w *World) InTx(fn func(ctx context.Context, tx *db.Tx) error) {
	w.t.Helper()
	congotest.InTx(w.t, w.DB, fn)
}

// Player returns a registered player.
func (w *World) Player(handle string) db.Player {
	w.t.Helper()
	return congotest.Player(w.t, w.DB, handle)
}

// Personal returns a player's personal address.
func (w *World) Personal(handle string) string {
	w.t.Helper()
	return "congo+" + w.Player(handle).Secret + "@example.org"
}

// Game returns a game.
func (w *World) Game(id int64) db.Game {
	w.t.Helper()
	var g db.Game
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		g, err = tx.Game(ctx, id)
		return err
	})
	return g
}

// Games counts the games there are.
func (w *World) Games() int {
	w.t.Helper()
	n := 0
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		for id := int64(1); ; id++ {
			if _, err := tx.Game(ctx, id); err != nil {
				return nil
			}
			n++
		}
	})
	return n
}

// Register registers players by mail and throws away the welcome mails;
// each answers the welcome, which confirms the address (M28).
func (w *World) Register(handles ...string) {
	w.t.Helper()
	for _, p := range handles {
		w.Send(p, "register "+p)
	}
	for _, p := range handles {
		w.SendProven(p, "help")
	}
	w.Deliver()
}

// RegisterOnly registers the players without their answering the
// welcome: their addresses are not confirmed (M28).
func (w *World) RegisterOnly(handles ...string) {
	w.t.Helper()
	for _, p := range handles {
		w.Send(p, "register "+p)
	}
	w.Deliver()
}

// StartGame has white challenge black and black accept; it returns the
// game's id and throws away the mails.
func (w *World) StartGame(white, black string) int64 {
	w.t.Helper()
	w.Deliver()
	w.SendProven(white, "challenge congo "+black)
	id := GameOf(w.t, w.Deliver())
	w.SendProven(black, fmt.Sprintf("accept congo %d", id))
	w.Deliver()
	return id
}

// Tick runs the clock at the World's time and returns when it is next
// due.
func (w *World) Tick() time.Time {
	w.t.Helper()
	next, err := w.Server.Clock().Tick(context.Background())
	if err != nil {
		w.t.Fatalf("Tick: %v", err)
	}
	return next
}

// Admin carries out an operator's command given on the machine.
func (w *World) Admin(line string) {
	w.t.Helper()
	a, e, ok := parser.ParseAdmin(line)
	if !ok || e.Problem != parser.NoProblem {
		w.t.Fatalf("ParseAdmin(%q) not ok: %+v", line, e)
	}
	if _, err := w.Server.Admin(context.Background(), a, "test"); err != nil {
		w.t.Fatalf("Admin(%q): %v", line, err)
	}
}

// Banned reports whether the player with the handle is banned.
func (w *World) Banned(handle string) bool {
	w.t.Helper()
	var b bool
	id := w.Player(handle).ID
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		b, err = tx.Banned(ctx, id)
		return err
	})
	return b
}

// RobotStep runs one step of the robot's worker of s (the World's
// server, or another on its database) and reports whether it played.
func RobotStep(t testing.TB, s *server.Server) bool {
	t.Helper()
	played, err := s.Robot().Step(context.Background())
	if err != nil {
		t.Fatalf("RobotStep: %v", err)
	}
	return played
}
