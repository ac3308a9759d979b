package outbox

import (
	"bytes"
	"context"
	"io"
	"log"
	"log/slog"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer"
)

// loginServer is an SMTP server that demands a login, with a password
// that can be changed, and counts the connections and logins it sees
// and the mails it takes.
type loginServer struct {
	mu       sync.Mutex
	password string
	conns    int
	logins   int // tried
	refused  int
	got      []string
	gotMail  chan struct{}
}

func (k *loginServer) NewSession(*smtp.Conn) (smtp.Session, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.conns++
	return &loginSession{k: k}, nil
}

func (k *loginServer) setPassword(pw string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.password = pw
}

func (k *loginServer) counts() (conns, logins, refused, mails int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.conns, k.logins, k.refused, len(k.got)
}

type loginSession struct {
	k        *loginServer
	loggedIn bool
	to       string
}

func (s *loginSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *loginSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, password string) error {
		s.k.mu.Lock()
		defer s.k.mu.Unlock()
		s.k.logins++
		if user != "congo" || password != s.k.password {
			s.k.refused++
			return smtp.ErrAuthFailed
		}
		s.loggedIn = true
		return nil
	}), nil
}

func (s *loginSession) Mail(string, *smtp.MailOptions) error {
	if !s.loggedIn {
		return smtp.ErrAuthRequired
	}
	return nil
}

func (s *loginSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = to
	return nil
}

func (s *loginSession) Data(r io.Reader) error {
	if _, err := io.Copy(io.Discard, r); err != nil {
		return err
	}
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	s.k.got = append(s.k.got, s.to)
	select {
	case s.k.gotMail <- struct{}{}:
	default:
	}
	return nil
}

func (s *loginSession) Reset()        {}
func (s *loginSession) Logout() error { return nil }

// TestOutboxLoginBlock: a send that fails because the SMTP server refused
// the login, and those that meet the login block after it, are no
// attempt: each mail keeps its attempts, its next attempt and its last
// error; a round during the block sends nothing and connects to nothing;
// no mail is warned about. Once the password is put right, the send loop
// sends every mail at the block's end, with one login more, and without
// charging them anything.
func TestOutboxLoginBlock(t *testing.T) {
	k := &loginServer{password: "old", gotMail: make(chan struct{}, 1)}
	srv := smtp.NewServer(k)
	srv.Domain = "sink.example.org"
	srv.AllowInsecureAuth = true
	srv.ErrorLog = log.New(io.Discard, "", 0)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	s, err := mailer.NewSMTP("smtp://congo:new@"+l.Addr().String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Long enough for the rounds below to fall within it, short enough
	// for the loop to reach its end.
	s.LoginBlock = 4 * time.Second
	t.Cleanup(func() { s.Close() })

	h := newHarnessWith(t, Config{Connections: 2})
	var logs syncBuffer
	h.o.log = slog.New(slog.NewTextHandler(&logs, nil))
	h.queue("alice") // 1
	h.queue("bob")   // 2
	h.queue("carol") // 3: tried before, and waits no more
	ctx := context.Background()
	err = h.db.Tx(ctx, func(tx *db.Tx) error {
		return tx.SetRetry(ctx, 3, h.clock.Now(), "451 try again later")
	})
	if err != nil {
		t.Fatal(err)
	}
	before := map[int64]db.Mail{}
	for id := int64(1); id <= 3; id++ {
		before[id] = h.outboxMail(id)
	}

	for round := range 2 {
		n, err := h.o.SendDue(ctx, s)
		if err != nil || n != 0 {
			t.Fatalf("SendDue %d with the login refused = %d, %v; want 0, nil", round, n, err)
		}
	}
	conns, logins, _, mails := k.counts()
	if logins != 1 || mails != 0 {
		t.Errorf("two rounds with the login refused: %d logins, %d mails taken; want 1 login, no mail", logins, mails)
	}
	if conns > 2 {
		t.Errorf("two rounds with the login refused made %d connections, want at most one a lane of the first", conns)
	}
	for id, was := range before {
		m := h.outboxMail(id)
		if m.Attempts != was.Attempts || !m.NextAttempt.Equal(was.NextAttempt) || m.LastError != was.LastError ||
			!m.SentAt.IsZero() || !m.FailedAt.IsZero() {
			t.Errorf("mail %d after rounds blocked by the login: attempts %d, next %v, last error %q, sent %v, failed %v;"+
				" want as it was: attempts %d, next %v, last error %q, waiting",
				id, m.Attempts, m.NextAttempt, m.LastError, m.SentAt, m.FailedAt, was.Attempts, was.NextAttempt, was.LastError)
		}
	}

	k.setPassword("new")
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- h.o.Run(rctx, s) }()
	defer cancel()
	deadline := time.After(30 * time.Second)
	for {
		if _, _, _, mails := k.counts(); mails == 3 {
			break
		}
		select {
		case <-k.gotMail:
		case <-deadline:
			cancel()
			<-done
			t.Fatalf("mails not sent 30 s after the password was put right (the block is at most 4 s)")
		}
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
	if _, _, refused, _ := k.counts(); refused != 1 {
		t.Errorf("%d logins refused in all, want 1: none tried during the block", refused)
	}
	for id, was := range before {
		if m := h.outboxMail(id); m.SentAt.IsZero() || m.Attempts != was.Attempts {
			t.Errorf("mail %d: attempts %d, sent %v; want sent, attempts %d", id, m.Attempts, m.SentAt, was.Attempts)
		}
	}
	if bytes.Contains([]byte(logs.String()), []byte("level=WARN")) || bytes.Contains([]byte(logs.String()), []byte("level=ERROR")) {
		t.Errorf("the outbox warned of mails waiting for the login:\n%s", logs.String())
	}
}

// syncBuffer is a bytes.Buffer that may be written from goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
