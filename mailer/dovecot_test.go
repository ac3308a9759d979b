package mailer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/internal/dovecottest"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/mailmsg"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// dovecot is a Dovecot IMAP server run by a test.
type dovecot struct {
	addr string
	s    *dovecottest.Server
}

// startDovecot runs Dovecot on a loopback port with one user, congo/pw,
// and extra lines of configuration. The test is skipped where Dovecot
// cannot run (dovecottest.Skip).
func startDovecot(t *testing.T, extra string) *dovecot {
	t.Helper()
	s := dovecottest.Start(t, dovecottest.Config{Domain: "pbm.example.net", Extra: extra})
	return &dovecot{addr: s.Addr, s: s}
}

func (d *dovecot) url() string { return "imap://congo:pw@" + d.addr + "/INBOX" }

// client logs in as congo.
func (d *dovecot) client(t *testing.T) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(d.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login("congo", "pw").Wait(); err != nil {
		c.Close()
		t.Fatalf("dovecot login: %v", err)
	}
	return c
}

// appendMail puts a mail with the given subject into the INBOX, and
// returns it.
func (d *dovecot) appendMail(t *testing.T, subject string, flags ...imap.Flag) []byte {
	t.Helper()
	raw := []byte(fmt.Sprintf("From: Alice <alice@example.org>\r\nTo: congo@pbm.example.net\r\n"+
		"Subject: %s\r\n\r\nmove congo 42 b2-b3\r\n", subject))
	d.appendRaw(t, raw, flags...)
	return raw
}

func (d *dovecot) appendRaw(t *testing.T, raw []byte, flags ...imap.Flag) {
	t.Helper()
	c := d.client(t)
	defer c.Close()
	cmd := c.Append("INBOX", int64(len(raw)), &imap.AppendOptions{Flags: flags})
	if _, err := cmd.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := cmd.Wait(); err != nil {
		t.Fatalf("dovecot append: %v", err)
	}
}

type stored struct {
	subject string
	seen    bool
}

// mailbox lists a mailbox; nil when it does not exist.
func (d *dovecot) mailbox(t *testing.T, name string) []stored {
	t.Helper()
	c := d.client(t)
	defer c.Close()
	sel, err := c.Select(name, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil || sel.NumMessages == 0 {
		return nil
	}
	bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{
		Flags:       true,
		BodySection: []*imap.FetchItemBodySection{{Peek: true}},
	}).Collect()
	if err != nil {
		t.Fatalf("dovecot fetch %s: %v", name, err)
	}
	var l []stored
	for _, b := range bufs {
		in, _ := mailmsg.Parse(b.BodySection[0].Bytes)
		l = append(l, stored{in.Subject, slices.Contains(b.Flags, imap.FlagSeen)})
	}
	return l
}

func TestInboxDovecot(t *testing.T) {
	d := startDovecot(t, "")
	d.appendMail(t, "first")
	big := mailWithAttachment(64<<10, true)
	d.appendRaw(t, big)
	var h handled
	runInbox(t, mailer.InboxConfig{URL: d.url(), Poll: time.Minute, MaxSize: 4096},
		func(_ context.Context, m *mailmsg.Incoming) error {
			h.add(m)
			return nil
		})
	congotest.WaitFor(t, "the mails handled", 5*time.Second, func() bool { return len(h.all()) == 2 })
	d.appendMail(t, "during idle")
	congotest.WaitFor(t, "the mail appended during IDLE handled", 5*time.Second, func() bool { return len(h.all()) == 3 })
	congotest.WaitFor(t, "the INBOX emptied", 5*time.Second, func() bool { return len(d.mailbox(t, "INBOX")) == 0 })

	if got, want := h.subjects(), []string{"first", "big", "during idle"}; !slices.Equal(got, want) {
		t.Errorf("handled %q, want %q", got, want)
	}
	if m := h.all()[1]; m.Text != "board congo 42" || !m.Truncated || m.Size != len(big) {
		t.Errorf("big mail = Text %q, Truncated %v, Size %d; want %q, true, %d", m.Text, m.Truncated, m.Size, "board congo 42", len(big))
	}
	want := []stored{{"first", true}, {"big", true}, {"during idle", true}}
	if got := d.mailbox(t, "Processed"); !slices.Equal(got, want) {
		t.Errorf("Processed holds %v, want %v", got, want)
	}
}

func TestInboxDovecotWithoutMoveOrIdle(t *testing.T) {
	tests := []struct {
		name      string
		caps      string
		wantInbox []stored
	}{
		{"UIDPLUS", "IMAP4rev1 LITERAL+ UIDPLUS", []stored{{"someone's deleted mail", true}}},
		{"plain IMAP4rev1", "IMAP4rev1 LITERAL+", []stored{{"someone's deleted mail", true}, {"command", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := startDovecot(t, "protocol imap {\n  imap_capability = "+tt.caps+"\n}")
			d.appendMail(t, "someone's deleted mail", imap.FlagSeen, imap.FlagDeleted)
			var h handled
			runInbox(t, mailer.InboxConfig{URL: d.url(), Poll: 200 * time.Millisecond},
				func(_ context.Context, m *mailmsg.Incoming) error {
					h.add(m)
					return nil
				})
			// Without IDLE, mail is found by polling.
			d.appendMail(t, "command")
			congotest.WaitFor(t, "the mail handled", 5*time.Second, func() bool { return len(h.all()) == 1 })
			congotest.WaitFor(t, "the mail filed", 5*time.Second, func() bool { return len(d.mailbox(t, "Processed")) == 1 })
			congotest.WaitFor(t, "the INBOX settled", 5*time.Second, func() bool { return len(d.mailbox(t, "INBOX")) == len(tt.wantInbox) })
			if got := d.mailbox(t, "INBOX"); !slices.Equal(got, tt.wantInbox) {
				t.Errorf("INBOX holds %v, want %v", got, tt.wantInbox)
			}
			if got, want := d.mailbox(t, "Processed"), []stored{{"command", true}}; !slices.Equal(got, want) {
				t.Errorf("Processed holds %v, want %v", got, want)
			}
		})
	}
}

// TestInboxDovecotRestarts kills and restarts Dovecot under a running
// Inbox, once as it was and once with its UID lists and indexes gone, so that UIDVALIDITY
// changes: mail that came meanwhile is handled, and none twice.
func TestInboxDovecotRestarts(t *testing.T) {
	d := startDovecot(t, "")
	var h handled
	runInbox(t, mailer.InboxConfig{URL: d.url(), Poll: time.Minute, Timeout: time.Second, Backoff: 50 * time.Millisecond},
		func(_ context.Context, m *mailmsg.Incoming) error {
			h.add(m)
			return nil
		})
	d.appendRaw(t, []byte("From: alice@example.org\r\nSubject: before\r\nMessage-ID: <before@example.org>\r\n\r\nhelp\r\n"))
	congotest.WaitFor(t, "the first mail handled", 5*time.Second, func() bool { return len(h.all()) == 1 })
	congotest.WaitFor(t, "the INBOX emptied", 5*time.Second, func() bool { return len(d.mailbox(t, "INBOX")) == 0 })

	d.s.Restart(t, nil)
	d.appendRaw(t, []byte("From: alice@example.org\r\nSubject: after a restart\r\nMessage-ID: <restart@example.org>\r\n\r\nhelp\r\n"))
	congotest.WaitFor(t, "mail handled after the restart", 10*time.Second, func() bool { return len(h.all()) == 2 })
	congotest.WaitFor(t, "the INBOX emptied", 5*time.Second, func() bool { return len(d.mailbox(t, "INBOX")) == 0 })

	d.s.Restart(t, func() {
		err := filepath.WalkDir(d.s.Home("congo"), func(path string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasPrefix(e.Name(), "dovecot") {
				err = os.Remove(path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		// Dovecot gives a new mailbox the time in seconds as UIDVALIDITY, or
		// the next number its counter file holds when mailboxes were made in
		// the same second (INBOX, Processed and Quarantine at the start). The
		// counter is gone with the files above, so wait until the clock has
		// passed the old value.
		old := int64(h.all()[1].UIDValidity)
		for time.Now().Unix() <= old {
			time.Sleep(100 * time.Millisecond)
		}
	})
	d.appendRaw(t, []byte("From: alice@example.org\r\nSubject: new uidvalidity\r\nMessage-ID: <uidvalidity@example.org>\r\n\r\nhelp\r\n"))
	congotest.WaitFor(t, "mail handled after UIDVALIDITY changed", 10*time.Second, func() bool { return len(h.all()) == 3 })
	time.Sleep(200 * time.Millisecond)

	all := h.all()
	if got, want := h.subjects(), []string{"before", "after a restart", "new uidvalidity"}; !slices.Equal(got, want) {
		t.Errorf("handled %q, want %q", got, want)
	}
	if len(all) == 3 && all[2].UIDValidity == all[1].UIDValidity {
		t.Errorf("UIDVALIDITY stayed %d after the UID lists were removed", all[2].UIDValidity)
	}
	if got := len(d.mailbox(t, "Processed")); got != 3 {
		t.Errorf("Processed holds %d mails, want 3", got)
	}
}

// TestInboxDovecotBatches: a backlog on Dovecot is handed over in batches,
// each mail once and in order, a large one truncated within its batch, and
// all filed.
func TestInboxDovecotBatches(t *testing.T) {
	d := startDovecot(t, "")
	const n = 70
	big := mailWithAttachment(600<<10, true)
	var want []string
	for i := range n {
		if i == 40 {
			d.appendRaw(t, big)
			want = append(want, "big")
			continue
		}
		subject := fmt.Sprintf("mail %02d", i)
		d.appendMail(t, subject)
		want = append(want, subject)
	}
	var b batches
	runInboxBatch(t, mailer.InboxConfig{URL: d.url(), Poll: time.Minute, MaxSize: 512 << 10},
		func(_ context.Context, ms []*mailmsg.Incoming) []error {
			b.add(ms)
			return nilErrors(ms)
		})
	congotest.WaitFor(t, "the INBOX emptied", 10*time.Second, func() bool { return len(d.mailbox(t, "INBOX")) == 0 })

	several := false
	for _, ms := range b.all() {
		if len(ms) > mailer.DefaultBatch {
			t.Errorf("a batch of %d mails, want at most %d", len(ms), mailer.DefaultBatch)
		}
		several = several || len(ms) > 1
	}
	if !several {
		t.Errorf("batches %v, want one of several mails", b.uids())
	}
	var got []string
	for _, m := range b.mails() {
		got = append(got, m.Subject)
		if m.Subject == "big" && (m.Text != "board congo 42" || !m.Truncated || m.Size != len(big)) {
			t.Errorf("big mail = Text %q, Truncated %v, Size %d; want %q, true, %d", m.Text, m.Truncated, m.Size, "board congo 42", len(big))
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("handled %q, want %q", got, want)
	}
	if got := d.mailbox(t, "Processed"); len(got) != n {
		t.Errorf("Processed holds %d mails, want %d", len(got), n)
	}
}

// TestInboxLoginFixedDovecot: Dovecot refuses the Inbox's login (the
// account's password was changed at the server) while a mail waits; a
// second after the refusal the password is put right. The mail is read
// and handled at the login block's end, within seconds, charged no try
// ($CongoTry keyword) for the wait, after one refused login alone. The
// block is shortened to 2 to 4 s (LoginBlock 4 s); the time from the fix
// to the handling is logged.
//
// Dovecot itself makes a login from an address that failed one in the
// last half minute or so wait (its auth penalty: 4 s after one failure,
// measured here, whatever the password), which the production block of
// 2.5 to 5 minutes outlasts: the login at the end of this short block
// waits those 4 s at the server.
func TestInboxLoginFixedDovecot(t *testing.T) {
	s := dovecottest.Start(t, dovecottest.Config{Domain: "pbm.example.net",
		Users: []dovecottest.User{{Name: "congo", Password: "old-pw"}}, Extra: "auth_failure_delay = 0\n"})
	raw := []byte("From: alice@example.org\r\nSubject: waiting\r\nMessage-ID: <waiting@example.org>\r\n\r\nhelp\r\n")
	if err := s.Append("congo", "INBOX", raw); err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	var h handled
	const block = 4 * time.Second
	runInbox(t, mailer.InboxConfig{URL: "imap://congo:new-pw@" + s.Addr + "/INBOX", LoginBlock: block,
		Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))},
		func(_ context.Context, m *mailmsg.Incoming) error {
			h.add(m)
			return nil
		})
	var until time.Time
	congotest.WaitFor(t, "a refused login logged", 5*time.Second, func() bool {
		for _, line := range strings.Split(logs.String(), "\n") {
			var r struct {
				Msg   string
				Until time.Time
			}
			if json.Unmarshal([]byte(line), &r) == nil && strings.HasPrefix(r.Msg, "imap login refused") {
				until = r.Until
				return true
			}
		}
		return false
	})
	time.Sleep(time.Second)
	s.SetPassword(t, "congo", "new-pw")
	fixed := time.Now()
	congotest.WaitFor(t, "the waiting mail handled", block+10*time.Second, func() bool { return len(h.all()) == 1 })
	handledAt := time.Now()
	t.Logf("login refused; password put right %v before the block's end; handled %v after the fix, %v after the block's end",
		until.Sub(fixed).Round(time.Millisecond), handledAt.Sub(fixed).Round(time.Millisecond), handledAt.Sub(until).Round(time.Millisecond))
	const penalty = 4 * time.Second // Dovecot's, see above
	if d := handledAt.Sub(until); d < 0 || d > penalty+3*time.Second {
		t.Errorf("handled %v after the login block's end, want within Dovecot's %v and 3 s of it:\n%s", d, penalty, logs.String())
	}
	if n := strings.Count(logs.String(), "imap login refused"); n != 1 {
		t.Errorf("%d refused logins logged, want 1:\n%s", n, logs.String())
	}
	var msgs []dovecottest.Message
	congotest.WaitFor(t, "the mail filed", 5*time.Second, func() bool {
		var err error
		msgs, err = s.Fetch("congo", "Processed")
		return err == nil && len(msgs) == 1
	})
	for _, f := range msgs[0].Flags {
		if strings.HasPrefix(string(f), "$CongoTry") {
			t.Errorf("the mail that waited for the login was charged a try: flags %v", msgs[0].Flags)
		}
	}
}
