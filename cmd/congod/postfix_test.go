package main

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"math/rand/v2"
	netmail "net/mail"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/config"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/internal/dovecottest"
	"github.com/congobymail/congo/internal/postfixtest"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/rules"
)

// postfixSystem is a mail system as an operator runs it: Postfix in front
// of Dovecot. The players' mail comes in through Postfix's MX port and is
// delivered to Dovecot over LMTP; the daemon reads Dovecot over IMAPS and
// submits through Postfix's submission port (STARTTLS, SASL).
type postfixSystem struct {
	d *dovecottest.Server
	p *postfixtest.Server
}

// startPostfix starts Dovecot with the users and Postfix in front of it.
func startPostfix(t *testing.T, users ...dovecottest.User) postfixSystem {
	t.Helper()
	// A refused password is answered at once, not after Dovecot's 2 s,
	// so that a test sees every login tried.
	d := dovecottest.Start(t, dovecottest.Config{TLS: true, LMTP: true, Users: users, Extra: "auth_failure_delay = 0\n"})
	return postfixSystem{d: d, p: postfixtest.Start(t, postfixtest.Config{Dovecot: d})}
}

func (s postfixSystem) Deliver(ctx context.Context, from string, to []string, raw []byte) error {
	return s.p.Deliver(ctx, from, to, raw)
}

func (s postfixSystem) Messages(name, mailbox string) ([][]byte, error) {
	return s.d.Messages(name, mailbox)
}

// config is the daemon's configuration against s: IMAPS and submission
// with STARTTLS, as the user congo with password pw.
func (s postfixSystem) config(t *testing.T, pw string) *settings {
	return &settings{Settings: config.Settings{
		IMAP: s.d.URL("imaps", "congo", "INBOX"), SMTP: s.p.URL("smtp+starttls", "congo", pw),
		CAFile: s.d.CAFile, Address: "congo@example.org", DB: filepath.Join(t.TempDir(), "congo.db"),
		Poll: time.Minute, Processed: "Processed", LogLevel: "info",
	}}
}

// delivered waits until Postfix has delivered n mails to the server's
// mailbox (congo+... addresses), 30 s at most.
func (s postfixSystem) delivered(n int) error {
	re := regexp.MustCompile(`lmtp\[\d+\]: \w+: to=<congo\+[^>]*>.*status=sent`)
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := len(re.FindAllString(s.p.Log(), -1))
		if got >= n {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postfix delivered %d mails to congo in 30 s, want %d", got, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// acceptedOrder is the order in which Postfix took the mails, by
// Message-ID, from its log (cleanup logs each mail as it is received).
func (s postfixSystem) acceptedOrder() []string {
	var ids []string
	for _, m := range regexp.MustCompile(`postfix/cleanup\[\d+\]: \w+: message-id=<([^>]+)>`).FindAllStringSubmatch(s.p.Log(), -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// moveMail is a move command from a player's mail client.
func moveMail(g *crashGame, k int) (from, to string, raw []byte) {
	from, to = g.white, g.whitePA
	if k%2 == 1 {
		from, to = g.black, g.blackPA
	}
	raw = fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: Re: Congo game %d\r\nMessage-ID: <move%d.%d@client.example.net>\r\n"+
		"Date: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nmove congo %d %s anyway\r\n",
		from, to, g.id, g.id, k, time.Now().Format(time.RFC1123Z), g.id, g.moves[k])
	return from, to, raw
}

// outboxMails returns the mails of the outbox, oldest first.
func outboxMails(t *testing.T, store *db.DB) []db.Mail {
	t.Helper()
	ctx := context.Background()
	var mails []db.Mail
	err := store.Tx(ctx, func(tx *db.Tx) error {
		// Ids have gaps: a transaction rolled back (a daemon killed
		// before its commit) used ids of PostgreSQL's sequence, and
		// holds fewer mails than maxGap.
		const maxGap = 2000
		for id, missed := int64(1), 0; missed < maxGap; id++ {
			m, err := tx.Mail(ctx, id)
			if errors.Is(err, db.ErrNotFound) {
				missed++
				continue
			}
			if err != nil {
				return err
			}
			mails, missed = append(mails, m), 0
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return mails
}

// delivered returns the mails in the players' INBOX, by Message-ID, and
// their recipients in the order they arrived.
func delivered(t *testing.T, sys postfixSystem) (byID map[string][]byte, order map[string][]string) {
	t.Helper()
	raws, err := sys.Messages("players", "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	byID, order = map[string][]byte{}, map[string][]string{}
	for _, raw := range raws {
		m, err := netmail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		id := strings.Trim(m.Header.Get("Message-ID"), "<>")
		byID[id] = raw
		to := strings.ToLower(m.Header.Get("Delivered-To"))
		order[to] = append(order[to], id)
	}
	return byID, order
}

// TestSMTPOutagePostfix stops Postfix while moves come in (delivered to
// Dovecot by another way, as a second MX would), then starts it again:
// every answer goes out within seconds of its return, each player's
// answers are submitted in the order they were queued, and each player's
// newest mail shows the newest board.
func TestSMTPOutagePostfix(t *testing.T) {
	sys := startPostfix(t, dovecottest.User{Name: "congo", Password: "congo-pw"}, dovecottest.User{Name: "players", Password: "pw"})
	other := sys.d.StartSMTP(t) // delivers straight into Dovecot
	cfg := sys.config(t, "congo-pw")
	seedStore := congotest.OpenDB(t, cfg.DB)
	const games, plies = 3, 2
	gs := seedGames(t, seedStore, games)
	seedStore.Close()
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	for _, g := range gs {
		for g.moves == nil {
			g.moves = randomGame(r, plies)
		}
	}
	runDaemon(t, cfg)
	store := congotest.OpenDB(t, cfg.DB)
	before := len(outboxMails(t, store))
	waitDelivered := func(n int, within time.Duration) {
		t.Helper()
		deadline := time.Now().Add(within)
		for {
			byID, _ := delivered(t, sys)
			if len(byID) >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d mails delivered after %v, want %d", len(byID), within, n)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitDelivered(before, 10*time.Second)

	sys.p.Stop(t)
	outage := time.Now()
	for k := range plies {
		for _, g := range gs {
			from, to, raw := moveMail(g, k)
			if err := other.Deliver(from, []string{to}, raw); err != nil {
				t.Fatal(err)
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	eventuallyWithin(t, 30*time.Second, "moves handled", func() string {
		if n := len(outboxMails(t, store)); n != before+games*plies*2 {
			return fmt.Sprintf("%d mails queued, want %d", n-before, games*plies*2)
		}
		return ""
	})
	time.Sleep(time.Until(outage.Add(4 * time.Second)))
	sys.p.Start(t)
	back := time.Now()
	t.Logf("Postfix down for %v", back.Sub(outage).Round(time.Millisecond))
	all := outboxMails(t, store)
	waitDelivered(len(all), 30*time.Second)
	took := time.Since(back)
	t.Logf("every answer delivered %v after Postfix was back", took.Round(time.Millisecond))
	if took > 6*time.Second {
		t.Errorf("the last answer came %v after Postfix was back, want within seconds", took.Round(time.Millisecond))
	}

	// Each player's answers were taken by Postfix in the order queued,
	// and the newest shows the board after the last move.
	accepted := sys.acceptedOrder()
	byID, _ := delivered(t, sys)
	queued := map[string][]string{}
	for _, m := range all[before:] {
		queued[m.To] = append(queued[m.To], m.MessageID)
	}
	for to, ids := range queued {
		var got []string
		for _, id := range accepted {
			if slices.Contains(ids, id) {
				got = append(got, id)
			}
		}
		if !slices.Equal(got, ids) {
			t.Errorf("mails to %s taken by Postfix in the order %q, want the order queued %q", to, got, ids)
		}
	}
	for _, g := range gs {
		pos := rules.Start()
		for _, text := range g.moves {
			m, err := pos.ParseMove(text)
			if err != nil {
				t.Fatal(err)
			}
			pos, _ = pos.Apply(m)
		}
		for _, to := range []string{g.white, g.black} {
			ids := queued[to]
			if len(ids) != plies {
				t.Errorf("%d mails queued to %s during the outage, want %d", len(ids), to, plies)
				continue
			}
			newest := byID[ids[len(ids)-1]]
			if !bytes.Contains(newest, []byte("Position: "+pos.String())) {
				t.Errorf("the newest mail to %s does not show the board after %q:\n%s", to, g.moves, newest)
			}
		}
	}
}

// TestSMTPLoginRefusedPostfix runs the daemon with a wrong SMTP password
// while several answers wait: the refused login is logged once, at
// ERROR, and not tried again for minutes (a provider would lock the
// account), whatever the number of mails; /healthz says SMTP is down; and
// no mail is given up.
func TestSMTPLoginRefusedPostfix(t *testing.T) {
	names := []string{"alice", "bob", "carol", "dave"}
	users := []dovecottest.User{{Name: "congo", Password: "congo-pw"}}
	for _, n := range names {
		users = append(users, dovecottest.User{Name: n, Password: "pw"})
	}
	sys := startPostfix(t, users...)
	dm := runDaemon(t, sys.config(t, "wrong-pw"))
	w := &world{t: t, sys: sys, seen: map[string]int{}, raw: map[string][]byte{}}
	players := len(names)
	for _, n := range names {
		w.send(n+"@example.org", "congo@example.org", "", "help", "")
	}
	eventually(t, "the answers queued and tried", func() string {
		if code, h := dm.healthz(t); code != 503 || !slices.Contains(h.Down, "smtp") || h.OutboxDepth != players {
			return fmt.Sprintf("healthz %d %+v, want smtp down and %d mails waiting", code, h, players)
		}
		return ""
	})
	// Time for more logins, were they tried: a server slows down each
	// refusal after the first (Postfix with Dovecot by 4-5 s).
	time.Sleep(6 * time.Second)
	refused := strings.Count(sys.p.Log(), "authentication failed")
	if refused != 1 {
		t.Errorf("Postfix refused %d logins, want 1 (no login tried again for minutes)", refused)
	}
	var errs int
	for _, r := range dm.logs.records("smtp login refused: check the user and password; trying again later") {
		if r["level"] == "ERROR" {
			errs++
		}
	}
	if errs != 1 {
		t.Errorf("%d errors logged for the refused login, want 1:\n%s", errs, dm.logs)
	}
	st, err := openStats(t, dm.cfg.DB)
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed != 0 || st.Pending != players {
		t.Errorf("outbox: %d mails given up, %d waiting; want none given up, %d waiting", st.Failed, st.Pending, players)
	}
	for _, n := range names {
		w.expectNothing(n)
	}
}

// TestSMTPLoginFixedPostfix is the issue of a refused SMTP login put
// right (issue 29): the daemon submits through Postfix as a user whose
// password was changed at the server, an answer waits, and a few seconds
// after the refusal the password is put right. The answer goes out
// within seconds of the login block's end, without being charged an
// attempt, after one refused login alone. The block is shortened to 10
// to 20 s (LoginBlock 20 s); the time from the fix to the delivery is
// logged, and must be at most the block's length and a few seconds.
func TestSMTPLoginFixedPostfix(t *testing.T) {
	const block = 20 * time.Second
	sys := startPostfix(t, dovecottest.User{Name: "congo", Password: "congo-pw"},
		dovecottest.User{Name: "sender", Password: "old-pw"}, dovecottest.User{Name: "alice", Password: "pw"})
	cfg := sys.config(t, "")
	cfg.SMTP = sys.p.URL("smtp+starttls", "sender", "the-new-password")
	cfg.smtpLoginBlock = block
	dm := runDaemon(t, cfg)
	w := &world{t: t, sys: sys, seen: map[string]int{}, raw: map[string][]byte{}}
	w.send("alice@example.org", "congo@example.org", "", "help", "")

	var refusedAt, blockEnd time.Time
	deadline := time.Now().Add(10 * time.Second)
	for refusedAt.IsZero() {
		if time.Now().After(deadline) {
			t.Fatalf("no refused login logged within 10 s:\n%s", dm.logs)
		}
		time.Sleep(20 * time.Millisecond)
		for _, r := range dm.logs.records("smtp login refused: check the user and password; trying again later") {
			var err error
			if refusedAt, err = time.Parse(time.RFC3339Nano, fmt.Sprint(r["time"])); err != nil {
				t.Fatalf("time of the refusal: %v", err)
			}
			if blockEnd, err = time.Parse(time.RFC3339Nano, fmt.Sprint(r["until"])); err != nil {
				t.Fatalf("end of the login block: %v", err)
			}
		}
	}
	wait := blockEnd.Sub(refusedAt)
	if wait < block/2-time.Second || wait > block+time.Second {
		t.Fatalf("login blocked for %v, want a half to the whole of %v", wait, block)
	}
	// Put right some seconds after the refusal, as the 12 s in 2
	// minutes 45; the block then has several rounds of the send loop,
	// and wakes by mail, in which to charge the answer something.
	time.Sleep(time.Until(refusedAt.Add(3 * time.Second)))
	w.send("alice@example.org", "congo@example.org", "", "help", "") // a second answer, queued during the block
	sys.d.SetPassword(t, "sender", "the-new-password")
	fixedAt := time.Now()

	deadline = blockEnd.Add(30 * time.Second)
	for {
		raws, err := sys.Messages("alice", "INBOX")
		if err != nil {
			t.Fatal(err)
		}
		if len(raws) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d answers delivered 30 s after the login block's end (%v after the fix), want 2:\n%s",
				len(raws), time.Since(fixedAt).Round(time.Second), dm.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	deliveredAt := time.Now()
	fixToDelivery, afterEnd := deliveredAt.Sub(fixedAt), deliveredAt.Sub(blockEnd)
	t.Logf("login refused, blocked for %v; password put right %v later; delivered %v after the fix, %v after the block's end",
		wait.Round(time.Millisecond), fixedAt.Sub(refusedAt).Round(time.Millisecond),
		fixToDelivery.Round(time.Millisecond), afterEnd.Round(time.Millisecond))
	if fixToDelivery > wait+3*time.Second {
		t.Errorf("delivered %v after the fix, want at most the block's %v and 3 s", fixToDelivery, wait)
	}
	if afterEnd < -time.Second {
		t.Errorf("delivered %v before the block's end: a login was tried during it", -afterEnd)
	}
	if n := strings.Count(sys.p.Log(), "authentication failed"); n != 1 {
		t.Errorf("Postfix refused %d logins, want 1", n)
	}
	if n := len(dm.logs.records("smtp login works again")); n != 1 {
		t.Errorf("%d lines say the login works again, want 1:\n%s", n, dm.logs)
	}
	if n := len(dm.logs.records("mail not sent; will try again")); n != 0 {
		t.Errorf("%d mails warned of while the login was blocked, want none:\n%s", n, dm.logs)
	}
	store, err := db.Open(context.Background(), cfg.DB)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	err = store.Read(context.Background(), func(tx *db.Tx) error {
		for id := int64(1); ; id++ {
			m, err := tx.Mail(context.Background(), id)
			if errors.Is(err, db.ErrNotFound) {
				if id < 3 {
					t.Errorf("%d mails in the outbox, want 2", id-1)
				}
				return nil
			}
			if err != nil {
				return err
			}
			if m.SentAt.IsZero() || m.Attempts != 0 {
				t.Errorf("answer %d: attempts %d, sent %v; want sent, no attempt charged", id, m.Attempts, m.SentAt)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// openStats reads the outbox figures of the database at path.
func openStats(t *testing.T, path string) (db.OutboxStats, error) {
	t.Helper()
	store, err := db.Open(context.Background(), path)
	if err != nil {
		return db.OutboxStats{}, err
	}
	defer store.Close()
	return store.OutboxStats(context.Background())
}

// TestCrashPostfix is TestCrash against Postfix and Dovecot: the moves
// come in through Postfix's MX port, the daemon reads Dovecot over IMAPS
// and submits through Postfix's submission port with STARTTLS and AUTH.
// With -crash.full: 1,000 moves in 50 games, 21 SIGKILLs and 7 SIGTERMs,
// and at most 1 mail in 1,000 delivered twice.
func TestCrashPostfix(t *testing.T) {
	games, plies, kills := 5, 10, 4
	if *crashFull {
		games, plies, kills = 50, 20, 21
	}
	if testing.Short() && !*crashFull {
		t.Skip("builds and runs the daemon")
	}
	sys := startPostfix(t, dovecottest.User{Name: "congo", Password: "congo-pw"}, dovecottest.User{Name: "players", Password: "pw"})
	queued, dups := crashTest(t, sys, []string{"-imap", sys.d.URL("imaps", "congo", "INBOX"),
		"-smtp", sys.p.URL("smtp+starttls", "congo", "congo-pw"), "-ca-file", sys.d.CAFile}, games, plies, kills)
	if *crashFull && dups*1000 > queued {
		t.Errorf("%d of %d mails delivered twice, want at most 1 in 1,000", dups, queued)
	}
}

// TestTLSServerNameAndEHLO runs the daemon against servers given as
// 127.0.0.1 whose certificate names mail.example.org alone: without
// -tls-server-name neither IMAP nor SMTP is trusted; with it both are, and
// the answers go out with the EHLO name -hostname, which Postfix writes in
// its Received header.
func TestTLSServerNameAndEHLO(t *testing.T) {
	d := dovecottest.Start(t, dovecottest.Config{TLS: true, LMTP: true, CertNames: []string{"mail.example.org"},
		Users: []dovecottest.User{{Name: "congo", Password: "congo-pw"}, {Name: "alice", Password: "pw"}}})
	sys := postfixSystem{d: d, p: postfixtest.Start(t, postfixtest.Config{Dovecot: d})}

	for _, name := range []string{"", "mail.example.org"} {
		cfg := sys.config(t, "congo-pw")
		cfg.TLSServerName = name
		tc, err := cfg.tlsConfig()
		if err != nil {
			t.Fatal(err)
		}
		s, err := mailer.NewSMTP(cfg.SMTP, tc)
		if err != nil {
			t.Fatal(err)
		}
		err = s.Check(context.Background())
		s.Close()
		var he x509.HostnameError
		if name == "" && !errors.As(err, &he) || name != "" && err != nil {
			t.Errorf("SMTP session with -tls-server-name %q: %v", name, err)
		}
	}

	cfg := sys.config(t, "congo-pw")
	cfg.TLSServerName = "mail.example.org"
	cfg.Hostname = "congo.example.org"
	runDaemon(t, cfg)
	w := &world{t: t, sys: sys, seen: map[string]int{}, raw: map[string][]byte{}}
	w.send("alice@example.org", "congo@example.org", "", "help", "")
	answer := w.expect("alice", 1)[0]
	raw := w.raw[answer.MessageID]
	if !bytes.Contains(raw, []byte("Received: from congo.example.org (")) {
		t.Errorf("the answer was not submitted with EHLO congo.example.org:\n%s", raw)
	}
}
