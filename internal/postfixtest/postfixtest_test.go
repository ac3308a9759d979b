package postfixtest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/internal/dovecottest"
	"github.com/congobymail/congo/internal/postfixtest"
)

func start(t *testing.T) (*dovecottest.Server, *postfixtest.Server) {
	t.Helper()
	d := dovecottest.Start(t, dovecottest.Config{TLS: true, LMTP: true, Users: []dovecottest.User{
		{Name: "congo", Password: "congo-pw"}, {Name: "alice", Password: "alice-pw"},
	}})
	return d, postfixtest.Start(t, postfixtest.Config{Dovecot: d})
}

// submit sends a mail through the submission port with STARTTLS, logged
// in as user.
func submit(p *postfixtest.Server, user, password, from, to, raw string) error {
	c, err := smtp.DialStartTLS(p.SubmissionAddr, p.TLSConfig())
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", user, password)); err != nil {
		return err
	}
	if err := c.SendMail(from, []string{to}, strings.NewReader(raw)); err != nil {
		return err
	}
	return c.Quit()
}

// waitMails waits until the user's INBOX holds n mails and returns them.
func waitMails(t *testing.T, d *dovecottest.Server, user string, n int) [][]byte {
	t.Helper()
	var raws [][]byte
	congotest.WaitFor(t, fmt.Sprintf("%d mails in %s's INBOX", n, user), 10*time.Second, func() bool {
		var err error
		if raws, err = d.Messages(user, "INBOX"); err != nil {
			t.Fatal(err)
		}
		return len(raws) >= n
	})
	if len(raws) > n {
		t.Fatalf("%s's INBOX holds %d mails, want %d", user, len(raws), n)
	}
	return raws
}

// TestSubmissionAndMX submits a mail to a plus address and delivers one
// through the MX port: both reach Dovecot over LMTP. Unknown users,
// other domains, wrong passwords and mail without TLS are refused.
func TestSubmissionAndMX(t *testing.T) {
	d, p := start(t)
	start := time.Now()
	if err := submit(p, "congo", "congo-pw", "congo@example.org", "alice+game7@example.org",
		"From: congo@example.org\r\nSubject: board\r\nMessage-ID: <b1@example.org>\r\n\r\nhello\r\n"); err != nil {
		t.Fatalf("submit: %v", err)
	}
	raw := waitMails(t, d, "alice", 1)[0]
	t.Logf("submitted and delivered in %v", time.Since(start))
	for _, want := range []string{"Delivered-To: alice+game7@example.org", "Message-ID: <b1@example.org>", "hello"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("delivered mail lacks %q:\n%s", want, raw)
		}
	}

	if err := p.Deliver(context.Background(), "alice@example.net", []string{"congo+secret@example.org"},
		[]byte("From: alice@example.net\r\nSubject: move\r\n\r\nd2-e3\r\n")); err != nil {
		t.Fatalf("deliver through the MX: %v", err)
	}
	waitMails(t, d, "congo", 1)

	for _, tt := range []struct {
		name, user, password, to string
		code                     int
	}{
		{"unknown user", "congo", "congo-pw", "nobody@example.org", 550},
		{"other domain: no mail leaves the test", "congo", "congo-pw", "x@example.net", 550},
		{"wrong password", "congo", "bad", "alice@example.org", 535},
	} {
		err := submit(p, tt.user, tt.password, "congo@example.org", tt.to, "Subject: x\r\n\r\nx\r\n")
		var se *smtp.SMTPError
		if !errors.As(err, &se) || se.Code != tt.code {
			t.Errorf("%s: submit = %v, want a %d refusal", tt.name, err, tt.code)
		}
	}
	// Relaying through the MX port is refused.
	err := p.Deliver(context.Background(), "alice@example.net", []string{"bob@example.net"}, []byte("Subject: x\r\n\r\nx\r\n"))
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code/100 != 5 {
		t.Errorf("relay through the MX: %v, want a 5xx refusal", err)
	}
	// AUTH without TLS is not offered.
	c, err := smtp.Dial(p.SubmissionAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.example.net"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Extension("AUTH"); ok {
		t.Errorf("submission offers AUTH before STARTTLS")
	}
}

// TestStopStart stops Postfix, checks that its ports refuse connections,
// and starts it again on the same ports with its queue.
func TestStopStart(t *testing.T) {
	d, p := start(t)
	p.Stop(t)
	if err := submit(p, "congo", "congo-pw", "congo@example.org", "alice@example.org", "Subject: x\r\n\r\nx\r\n"); err == nil {
		t.Fatal("submit to a stopped Postfix worked")
	}
	start := time.Now()
	p.Start(t)
	t.Logf("started again in %v", time.Since(start))
	if err := submit(p, "congo", "congo-pw", "congo@example.org", "alice@example.org", "Subject: x\r\n\r\nx\r\n"); err != nil {
		t.Fatalf("submit after the restart: %v", err)
	}
	waitMails(t, d, "alice", 1)
}
