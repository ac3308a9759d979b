package mailer_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/mailmsg"
	"github.com/emersion/go-imap/v2"
)

// TestInboxChild is the process that TestInboxSetsAsideMailThatKills
// runs again and again: an Inbox whose handler kills its own process
// (SIGKILL, as an out-of-memory kill would) when it meets the poison mail.
func TestInboxChild(t *testing.T) {
	url := os.Getenv("CONGO_INBOX_CHILD")
	if url == "" {
		t.Skip("run as a child process by TestInboxSetsAsideMailThatKills")
	}
	maxTries, _ := strconv.Atoi(os.Getenv("CONGO_INBOX_MAXTRIES"))
	inbox, err := mailer.NewInbox(mailer.InboxConfig{
		URL: url, Poll: 50 * time.Millisecond, MaxTries: maxTries,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	inbox.RunBatch(context.Background(), func(_ context.Context, ms []*mailmsg.Incoming) []error {
		for _, m := range ms {
			if m.Subject == "poison" {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
		}
		return make([]error, len(ms))
	})
}

// TestInboxSetsAsideMailThatKills: a mail that kills the process while it
// is handled is tried alone after the restart, each death while it is
// alone counts as a failed try, and after MaxTries it is set aside, so
// that the process stops dying; the mails handled with it in a batch are
// filed, and no try is counted against them.
func TestInboxSetsAsideMailThatKills(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary as a child process")
	}
	for _, maxTries := range []int{1, 3} {
		t.Run(fmt.Sprintf("max_tries=%d", maxTries), func(t *testing.T) { testMailThatKills(t, maxTries) })
	}
}

func testMailThatKills(t *testing.T, maxTries int) {
	sys := startSystem(t, loopback.Config{})
	subjects := []string{"first", "poison", "last"}
	for _, s := range subjects {
		deliver(t, sys, s)
	}
	settled := func() bool {
		return count(sys, "INBOX", 0)() && count(sys, "Quarantine", 1)() && count(sys, "Processed", 2)()
	}
	deaths := 0
	for run := 0; ; run++ {
		if run == maxTries+4 {
			t.Fatalf("after %d runs (%d deaths) the poison is not set aside", run, deaths)
		}
		var logs bytes.Buffer
		cmd := exec.Command(os.Args[0], "-test.run=^TestInboxChild$")
		cmd.Env = append(os.Environ(), "CONGO_INBOX_CHILD="+sys.IMAPURL("congo"), fmt.Sprintf("CONGO_INBOX_MAXTRIES=%d", maxTries))
		cmd.Stdout, cmd.Stderr = &logs, &logs
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		died := false
		deadline := time.After(10 * time.Second)
	watch:
		for {
			select {
			case err := <-exited:
				if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
					t.Fatalf("run %d ended with %v, want a SIGKILL:\n%s", run, err, logs.String())
				}
				died = true
				break watch
			case <-deadline:
				cmd.Process.Kill()
				<-exited
				t.Fatalf("run %d: neither died nor settled:\n%s", run, logs.String())
			case <-time.After(20 * time.Millisecond):
				if settled() {
					cmd.Process.Kill()
					<-exited
					break watch
				}
			}
		}
		t.Logf("run %d:\n%s", run, logs.String())
		if !died {
			break
		}
		deaths++
	}
	// The poison killed the process in its batch, which counts against
	// no one, then MaxTries times alone, each death a try; the next run
	// set it aside without handing it over. A mail with one try left is
	// handled alone from the start: with MaxTries 1, there is no batch.
	want := maxTries + 1
	if maxTries == 1 {
		want = 1
	}
	if deaths != want {
		t.Errorf("the process died %d times, want %d", deaths, want)
	}
	q := mailbox(t, sys, "Quarantine")
	if len(q) != 1 || !bytes.Contains(q[0].Raw, []byte("Subject: poison")) {
		t.Errorf("Quarantine holds %d mails, want the poison alone", len(q))
	}
	for _, m := range mailbox(t, sys, "Processed") {
		for _, f := range m.Flags {
			if len(f) > 9 && strings.EqualFold(string(f[:9]), "$CongoTry") {
				t.Errorf("a mail batched with the poison was charged a try: %v", m.Flags)
			}
		}
	}
	for _, m := range q {
		for _, f := range m.Flags {
			if strings.EqualFold(string(f), "$CongoHandling") || strings.EqualFold(string(f), "$CongoAlone") {
				t.Errorf("the quarantined mail is still flagged %s: moved back, it would not be handled", f)
			}
		}
	}
}

// TestInboxDeathFlags: what a dead process left on its mails decides
// what is counted, with MaxTries 2: a mail it had handled ($CongoDone) is
// filed, whatever else it is flagged; one from a batch in flight is
// handled alone and charged nothing; one it was handling alone, even if
// a person has read it meanwhile, is charged a try, and one with its
// last try is set aside.
func TestInboxDeathFlags(t *testing.T) {
	sys := startSystem(t, loopback.Config{})
	for _, subject := range []string{"handled", "batched", "alone", "read", "last"} {
		deliver(t, sys, subject)
	}
	left := map[imap.UID][]imap.Flag{
		1: {imap.FlagSeen, "$CongoDone", "$CongoHandling", "$CongoAlone"},
		2: {"$CongoHandling"},
		3: {"$CongoHandling", "$CongoAlone"},
		4: {imap.FlagSeen, "$CongoHandling", "$CongoAlone"},
		5: {"$CongoHandling", "$CongoAlone", "$CongoTry1"},
	}
	for uid, flags := range left {
		addFlags(t, sys, uid, flags...)
	}
	var h handled
	runInbox(t, mailer.InboxConfig{URL: sys.IMAPURL("congo"), Poll: 50 * time.Millisecond, MaxTries: 2},
		func(_ context.Context, m *mailmsg.Incoming) error {
			h.add(m)
			return nil
		})
	congotest.WaitFor(t, "the INBOX emptied", 5*time.Second, count(sys, "INBOX", 0))
	if got, want := h.subjects(), []string{"handled", "batched", "alone", "read"}; !slices.Equal(got, want) {
		t.Errorf("handled %q, want %q", got, want)
	}
	for _, m := range mailbox(t, sys, "Processed") {
		charged := slices.ContainsFunc(m.Flags, func(f imap.Flag) bool { return strings.EqualFold(string(f), "$CongoTry1") })
		want := bytes.Contains(m.Raw, []byte("Subject: alone")) || bytes.Contains(m.Raw, []byte("Subject: read"))
		if charged != want {
			t.Errorf("a mail filed with flags %v: charged a try %v, want %v\n%s", m.Flags, charged, want, m.Raw)
		}
	}
	q := mailbox(t, sys, "Quarantine")
	if len(q) != 1 || !bytes.Contains(q[0].Raw, []byte("Subject: last")) {
		t.Errorf("Quarantine holds %d mails, want the one with its last try", len(q))
	}
}
