package mailer_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/mailer/loopback"
)

// TestInboxChild is the process that TestInboxSetsAsideMailThatKills
// runs again and again: an Inbox whose handler kills its own process
// (SIGKILL, as an out-of-memory kill would) when it meets the poison mail.
func TestInboxChild(t *testing.T) {
	url := os.Getenv("CONGO_INBOX_CHILD")
	if url == "" {
		t.Skip("run as a child process by TestInboxSetsAsideMailThatKills")
	}
	inbox, err := mailer.NewInbox(mailer.InboxConfig{
		URL: url, Poll: 50 * time.Millisecond, MaxTries: 3,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	inbox.RunBatch(context.Background(), func(_ context.Context, ms []*mailer.Incoming) []error {
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
// is handled is tried alone after the restart, each death counts as a
// failed try, and after MaxTries it is set aside, so that the process
// stops dying and the mails handled with it in a batch are filed.
func TestInboxSetsAsideMailThatKills(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary as a child process")
	}
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
		if run == 6 {
			t.Fatalf("after %d runs (%d deaths) the poison is not set aside", run, deaths)
		}
		var logs bytes.Buffer
		cmd := exec.Command(os.Args[0], "-test.run=^TestInboxChild$")
		cmd.Env = append(os.Environ(), "CONGO_INBOX_CHILD="+sys.IMAPURL("congo"))
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
	// The poison killed the process in its batch, then twice alone; the
	// fourth run set it aside without handing it over.
	if deaths != 3 {
		t.Errorf("the process died %d times, want 3 (MaxTries)", deaths)
	}
	q := mailbox(t, sys, "Quarantine")
	if len(q) != 1 || !bytes.Contains(q[0].Raw, []byte("Subject: poison")) {
		t.Errorf("Quarantine holds %d mails, want the poison alone", len(q))
	}
}
