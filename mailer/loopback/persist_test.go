package loopback_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/congobymail/congo/mailer/loopback"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

var persistUsers = []loopback.User{{Name: "congo", Password: "pw-congo"}, {Name: "alice", Password: "pw-alice"}}

// mailboxState is what a mail client sees of a mailbox.
type mailboxState struct {
	UIDValidity uint32
	UIDNext     imap.UID
	Messages    []loopback.Message
}

func (m mailboxState) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "UIDVALIDITY %d UIDNEXT %d:", m.UIDValidity, m.UIDNext)
	for _, msg := range m.Messages {
		fmt.Fprintf(&b, " [UID %d %v %d bytes]", msg.UID, msg.Flags, len(msg.Raw))
	}
	return b.String()
}

// state reads every mailbox of every user of sys over IMAP, by
// "user/mailbox".
func state(t *testing.T, sys *loopback.System) map[string]mailboxState {
	t.Helper()
	out := map[string]mailboxState{}
	for _, u := range persistUsers {
		c, err := imapclient.DialInsecure(sys.IMAPAddr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Login(u.Name, u.Password).Wait(); err != nil {
			t.Fatal(err)
		}
		list, err := c.List("", "*", nil).Collect()
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range list {
			sel, err := c.Select(l.Mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
			if err != nil {
				t.Fatal(err)
			}
			msgs, err := loopback.ReadMailbox(c, l.Mailbox)
			if err != nil {
				t.Fatal(err)
			}
			for i := range msgs {
				slices.Sort(msgs[i].Flags)
			}
			out[u.Name+"/"+l.Mailbox] = mailboxState{sel.UIDValidity, sel.UIDNext, msgs}
		}
		c.Close()
	}
	return out
}

// diffState reports how got differs from want, "" when it does not.
func diffState(want, got map[string]mailboxState) string {
	var b strings.Builder
	var names []string
	for n := range want {
		names = append(names, n)
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		w, wok := want[n]
		g, gok := got[n]
		switch {
		case !gok:
			fmt.Fprintf(&b, "-%s: %v\n", n, w)
		case !wok:
			fmt.Fprintf(&b, "+%s: %v\n", n, g)
		case !reflect.DeepEqual(w, g):
			fmt.Fprintf(&b, "-%s: %v\n+%s: %v\n", n, w, n, g)
		}
	}
	return b.String()
}

// TestMailboxesSurviveRestart changes the mailboxes in every way a client
// or a delivery can (new mail, flags and keywords, a new mailbox, MOVE,
// COPY, EXPUNGE, a rename), restarts the servers on the same directory,
// and finds the mailboxes, messages, flags, UIDVALIDITY and UIDs as they
// were; mail delivered then carries on from the UIDs before. The
// directory is 0700 and its files 0600 under umask 022.
func TestMailboxesSurviveRestart(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "congo-demo.mail")
	cfg := loopback.Config{Users: persistUsers, Dir: dir}
	sys, err := loopback.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	deliver := func(sys *loopback.System, to, subject string) {
		t.Helper()
		raw := "From: alice@example.org\r\nTo: " + to + "\r\nSubject: " + subject + "\r\n\r\nbody of " + subject + "\r\n"
		if err := sys.Deliver(ctx, "alice@example.org", []string{to}, []byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		deliver(sys, "congo@example.org", fmt.Sprint("mail ", i))
	}
	deliver(sys, "alice@example.org", "to alice")

	c, err := imapclient.DialInsecure(sys.IMAPAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.Login("congo", "pw-congo").Wait())
	// A mailbox gone leaves a gap in the UIDVALIDITY numbers.
	must(c.Create("Scratch", nil).Wait())
	must(c.Delete("Scratch").Wait())
	must(c.Create("Processed", nil).Wait())
	must(c.Create("Old", nil).Wait())
	must(c.Rename("Old", "Archive/2025", nil).Wait())
	must(c.Subscribe("Processed").Wait())
	_, err = c.Select("INBOX", nil).Wait()
	must(err)
	must(c.Store(imap.UIDSetNum(1, 2), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen, "$CongoDone"}}, nil).Close())
	_, err = c.Move(imap.UIDSetNum(1, 2), "Processed").Wait()
	must(err)
	_, err = c.Copy(imap.UIDSetNum(3), "Archive/2025").Wait()
	must(err)
	must(c.Store(imap.UIDSetNum(4), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close())
	must(c.UIDExpunge(imap.UIDSetNum(4)).Close())
	// The last message is fetched without PEEK, which sets \Seen.
	_, err = c.Fetch(imap.UIDSetNum(5), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{}}}).Collect()
	must(err)
	c.Close()
	deliver(sys, "congo+k3x@example.org", "mail 5")

	before := state(t, sys)
	if got := before["congo/INBOX"]; len(got.Messages) != 3 || got.UIDNext != 7 {
		t.Fatalf("before the restart, congo/INBOX = %v, want UIDs 3, 5, 6 and UIDNEXT 7", got)
	}

	// Saved a moment after the change, without a stop: a copy of the
	// directory (as a kill would leave it) holds it all.
	deadline := time.Now().Add(5 * time.Second)
	for {
		copyDir := filepath.Join(t.TempDir(), "copy.mail")
		copyTree(t, dir, copyDir)
		again, err := loopback.Start(ctx, loopback.Config{Users: persistUsers, Dir: copyDir})
		if err != nil {
			t.Fatal(err)
		}
		d := diffState(before, state(t, again))
		again.Close()
		if d == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("5 s after the last change, the saved mailboxes differ (-want +got):\n%s", d)
		}
		time.Sleep(50 * time.Millisecond)
	}

	sys.Close()
	sys, err = loopback.Start(ctx, cfg)
	if err != nil {
		t.Fatalf("Start again on %s: %v", dir, err)
	}
	if d := diffState(before, state(t, sys)); d != "" {
		t.Errorf("after a restart, the mailboxes differ (-want +got):\n%s", d)
	}

	// Mail goes on from the UIDs before, and a mailbox made now gets a
	// UIDVALIDITY none had.
	deliver(sys, "congo@example.org", "after the restart")
	msgs, err := sys.Fetch(ctx, "congo", "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	if last := msgs[len(msgs)-1]; last.UID != 7 {
		t.Errorf("the first mail after the restart has UID %d, want 7", last.UID)
	}
	c, err = imapclient.DialInsecure(sys.IMAPAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	must(c.Login("congo", "pw-congo").Wait())
	must(c.Create("New", nil).Wait())
	st, err := c.Status("New", &imap.StatusOptions{UIDValidity: true}).Wait()
	must(err)
	c.Close()
	for name, mb := range before {
		if strings.HasPrefix(name, "congo/") && mb.UIDValidity >= st.UIDValidity {
			t.Errorf("mailbox New made after the restart has UIDVALIDITY %d, not above %s's %d", st.UIDValidity, name, mb.UIDValidity)
		}
	}
	after := state(t, sys)
	sys.Close()

	// And once more, with what changed since.
	sys, err = loopback.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	if d := diffState(after, state(t, sys)); d != "" {
		t.Errorf("after a second restart, the mailboxes differ (-want +got):\n%s", d)
	}

	wantPerm(t, dir, 0o700)
	files, _ := os.ReadDir(dir)
	if len(files) != len(persistUsers) {
		t.Errorf("%s holds %d files, want one per user (%d)", dir, len(files), len(persistUsers))
	}
	for _, f := range files {
		wantPerm(t, filepath.Join(dir, f.Name()), 0o600)
	}
}

// TestMailboxesInMemoryAlone checks that without Dir nothing is kept: a
// new System starts empty.
func TestMailboxesInMemoryAlone(t *testing.T) {
	t.Parallel()
	sys := start(t, loopback.Config{})
	if err := sys.Deliver(context.Background(), "alice@example.org", []string{"congo@example.org"}, []byte(mail)); err != nil {
		t.Fatal(err)
	}
	sys.Close()
	sys = start(t, loopback.Config{})
	if msgs, err := sys.Messages("congo", "INBOX"); err != nil || len(msgs) != 0 {
		t.Errorf("a new System without Dir: congo's INBOX = %d messages, %v; want none", len(msgs), err)
	}
}

// TestRestoreRefusesBadFile checks that a damaged file stops Start with an
// error, rather than starting with empty mailboxes and saving over it.
func TestRestoreRefusesBadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "congo.json"), []byte(`{"mailboxes": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	sys, err := loopback.Start(context.Background(), loopback.Config{Users: persistUsers, Dir: dir})
	if err == nil {
		sys.Close()
		t.Fatalf("Start with a damaged congo.json: no error")
	}
}

func wantPerm(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Error(err)
		return
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("mode of %s = %#o, want %#o", path, got, want)
	}
}

// copyTree copies the files of the directory src into a new directory
// dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o700); err != nil {
		t.Fatal(err)
	}
	files, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(src, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
