package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	netmail "net/mail"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
)

const (
	ourAddress = "congo@example.org"
	players    = "players.example" // the domain of the players' addresses
)

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// sink is a Sender that records what it is given, and fails while it has
// errors to return.
type sink struct {
	mu   sync.Mutex
	sent []sentMail
	errs []error // returned by the next Sends, in order
	got  chan struct{}
}

type sentMail struct {
	from string
	to   []string
	raw  []byte
}

func (k *sink) Send(ctx context.Context, from string, to []string, msg []byte) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.errs) > 0 {
		err := k.errs[0]
		k.errs = k.errs[1:]
		return err
	}
	k.sent = append(k.sent, sentMail{from: from, to: to, raw: bytes.Clone(msg)})
	if k.got != nil {
		select {
		case k.got <- struct{}{}:
		default:
		}
	}
	return nil
}

// take returns the mails sent since the last take.
func (k *sink) take() []sentMail {
	k.mu.Lock()
	defer k.mu.Unlock()
	s := k.sent
	k.sent = nil
	return s
}

// received is a mail the server sent, as a player's mail program sees it.
type received struct {
	*mailmsg.Incoming
	To      string // the envelope recipient
	ReplyTo string
	Header  netmail.Header
	Raw     []byte // as sent
}

// harness is a server on a fresh database, with a clock and a sink.
type harness struct {
	t      *testing.T
	s      *Server
	db     *db.DB
	dbPath string
	clock  *clock
	sink   *sink
	n      int               // mails sent to the server so far
	last   *mailmsg.Incoming // the last mail handled
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	return newHarnessWith(t, Config{})
}

func newHarnessWith(t *testing.T, cfg Config) *harness {
	t.Helper()
	return newHarnessOutbox(t, cfg, outbox.Config{})
}

// newHarnessOutbox is newHarnessWith whose server queues its mail in an
// outbox of oc (its database, address, clock and logger the harness's).
func newHarnessOutbox(t *testing.T, cfg Config, oc outbox.Config) *harness {
	t.Helper()
	path := filepath.Join(t.TempDir(), "congo.db")
	d, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	c := &clock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	cfg.DB, cfg.Address, cfg.Now = d, ourAddress, c.Now
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	oc.DB, oc.From, oc.Hostname, oc.Now, oc.Logger = d, ourAddress, "example.org", c.Now, cfg.Logger
	ob, err := outbox.New(oc)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Outbox = ob
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, s: s, db: d, dbPath: path, clock: c, sink: &sink{}}
}

// addr is the registered address of the player with the given handle.
func addr(handle string) string {
	return handle + "@" + players
}

// mail builds an incoming mail from handle's address to the server's
// address; edit changes it further.
func (h *harness) mail(from, subject, body string) *mailmsg.Incoming {
	h.n++
	return &mailmsg.Incoming{
		UIDValidity:      1,
		UID:              uint32(h.n),
		MessageID:        fmt.Sprintf("m%d@%s", h.n, players),
		From:             addr(from),
		FromCount:        1,
		HeaderRecipients: []string{ourAddress},
		Subject:          subject,
		Text:             body,
		Date:             h.clock.Now(),
	}
}

// handle gives m to the server and fails the test if it fails.
func (h *harness) handle(m *mailmsg.Incoming) {
	h.t.Helper()
	h.last = m
	if err := h.s.ProcessMail(context.Background(), m); err != nil {
		h.t.Fatalf("ProcessMail(%q): %v", m.Subject, err)
	}
}

// send has handle send body to the server's plain address: a mail that
// proves nothing.
func (h *harness) send(from, body string) {
	h.t.Helper()
	h.handle(h.mail(from, "", body))
}

// sendProven has a registered player send body to their personal address.
func (h *harness) sendProven(from, body string) {
	h.t.Helper()
	h.handle(h.provenMail(from, body))
}

// provenMail is a mail with body from a registered player to their
// personal address.
func (h *harness) provenMail(from, body string) *mailmsg.Incoming {
	h.t.Helper()
	m := h.mail(from, "", body)
	m.HeaderRecipients = []string{h.personal(from)}
	return m
}

// reply answers a mail the way a mail program does: to its Reply-To, in
// its thread.
func (h *harness) reply(to received, body string) {
	h.t.Helper()
	m := h.mail(strings.TrimSuffix(to.To, "@"+players), "Re: "+to.Subject, body)
	m.HeaderRecipients = []string{to.ReplyTo}
	m.InReplyTo = []string{to.MessageID}
	m.References = append(append([]string(nil), to.References...), to.MessageID)
	h.handle(m)
}

// deliver sends the due outbox and returns what the players received,
// checking on the way that no mail shows one player another's address
// or secret.
func (h *harness) deliver() []received {
	h.t.Helper()
	h.sendAll()
	var out []received
	for _, s := range h.sink.take() {
		out = append(out, h.parse(s))
	}
	return out
}

// sendAll sends what the outbox holds that is due: round after round, as
// a recipient's mails go one a round, in order.
func (h *harness) sendAll() {
	h.t.Helper()
	for {
		n, err := h.s.Outbox().SendDue(context.Background(), h.sink)
		if err != nil {
			h.t.Fatalf("SendDue: %v", err)
		}
		if n == 0 {
			return
		}
	}
}

func (h *harness) parse(s sentMail) received {
	h.t.Helper()
	if s.from != ourAddress || len(s.to) != 1 {
		h.t.Fatalf("mail sent from %q to %q, want from %q to one address", s.from, s.to, ourAddress)
	}
	in, err := mailmsg.Parse(s.raw)
	if err != nil {
		h.t.Fatalf("mailmsg.Parse: %v\n%s", err, s.raw)
	}
	msg, err := netmail.ReadMessage(bytes.NewReader(s.raw))
	if err != nil {
		h.t.Fatalf("ReadMessage: %v", err)
	}
	r := received{Incoming: in, To: s.to[0], Header: msg.Header, Raw: s.raw}
	if list, err := msg.Header.AddressList("Reply-To"); err == nil && len(list) == 1 {
		r.ReplyTo = list[0].Address
	}
	if to, err := msg.Header.AddressList("To"); err != nil || len(to) != 1 || !strings.EqualFold(to[0].Address, r.To) {
		h.t.Errorf("To header %v (%v) is not the envelope recipient %q", to, err, r.To)
	}
	h.checkNoLeak(r, s.raw)
	return r
}

// checkNoLeak fails the test when a mail to one player holds the address
// or secret of another.
func (h *harness) checkNoLeak(r received, raw []byte) {
	h.t.Helper()
	text := strings.ToLower(string(raw) + r.Text)
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		for i := int64(1); ; i++ {
			p, err := tx.Player(ctx, i)
			if err != nil {
				return nil
			}
			if p.Address == strings.ToLower(r.To) {
				continue
			}
			if strings.Contains(text, p.Address) || strings.Contains(text, p.Secret) {
				h.t.Errorf("mail to %s shows %s's address or secret:\n%s", r.To, p.Handle, raw)
			}
		}
	})
}

func (h *harness) inTx(fn func(ctx context.Context, tx *db.Tx) error) {
	h.t.Helper()
	ctx := context.Background()
	if err := h.db.Tx(ctx, func(tx *db.Tx) error { return fn(ctx, tx) }); err != nil {
		h.t.Fatalf("Tx: %v", err)
	}
}

// player returns a registered player.
func (h *harness) player(handle string) db.Player {
	h.t.Helper()
	var p db.Player
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		p, err = tx.PlayerByHandle(ctx, handle)
		return err
	})
	return p
}

// personal returns a player's personal address.
func (h *harness) personal(handle string) string {
	h.t.Helper()
	return "congo+" + h.player(handle).Secret + "@example.org"
}

// game returns a game.
func (h *harness) game(id int64) db.Game {
	h.t.Helper()
	var g db.Game
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		g, err = tx.Game(ctx, id)
		return err
	})
	return g
}

// register registers players and throws away the welcome mails.
func (h *harness) register(handles ...string) {
	h.t.Helper()
	for _, p := range handles {
		h.send(p, "register "+p)
	}
	// Each answers the welcome, which confirms the address (M28).
	for _, p := range handles {
		h.sendProven(p, "help")
	}
	h.deliver()
}

// registerOnly registers the players without their answering the
// welcome: their addresses are not confirmed (M28).
func (h *harness) registerOnly(handles ...string) {
	h.t.Helper()
	for _, p := range handles {
		h.send(p, "register "+p)
	}
	h.deliver()
}

// startGame has white challenge black and black accept; it returns the
// game's id and throws away the mails.
func (h *harness) startGame(white, black string) int64 {
	h.t.Helper()
	h.deliver()
	h.sendProven(white, "challenge congo "+black)
	mails := h.deliver()
	id := gameOf(h.t, mails)
	h.sendProven(black, fmt.Sprintf("accept congo %d", id))
	h.deliver()
	return id
}

// gameOf returns the game number in the subject of the first mail.
func gameOf(t *testing.T, mails []received) int64 {
	t.Helper()
	if len(mails) == 0 {
		t.Fatalf("no mail")
	}
	var id int64
	if _, err := fmt.Sscanf(mails[0].Subject, "Congo game %d:", &id); err != nil {
		t.Fatalf("subject %q names no game", mails[0].Subject)
	}
	return id
}

// to returns the mails to one player's address.
func to(mails []received, handle string) []received {
	var out []received
	for _, m := range mails {
		if m.To == addr(handle) {
			out = append(out, m)
		}
	}
	return out
}

// only returns the one mail to a player, failing the test when there is
// not exactly one.
func only(t *testing.T, mails []received, handle string) received {
	t.Helper()
	got := to(mails, handle)
	if len(got) != 1 {
		var subjects []string
		for _, m := range mails {
			subjects = append(subjects, m.To+": "+m.Subject)
		}
		t.Fatalf("%d mails to %s, want 1; all mails: %q", len(got), handle, subjects)
	}
	return got[0]
}

// wantText fails the test unless the mail's text holds every one of want.
func wantText(t *testing.T, m received, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(m.Text, w) {
			t.Errorf("mail to %s %q does not say %q:\n%s", m.To, m.Subject, w, m.Text)
		}
	}
}

// wantNoText fails the test if the mail's text holds any of these.
func wantNoText(t *testing.T, m received, unwanted ...string) {
	t.Helper()
	for _, w := range unwanted {
		if strings.Contains(m.Text, w) {
			t.Errorf("mail to %s %q says %q:\n%s", m.To, m.Subject, w, m.Text)
		}
	}
}
