package outbox

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer"
)

// laneServer is an SMTP server that notes, for each mail, its recipient
// and subject, and how many mails it was taking at once at the most; the
// first mail of each session waits a little for others to come, so that
// sends at once meet.
type laneServer struct {
	mu       sync.Mutex
	got      map[string][]string // recipient -> subjects, in order
	now, top int                 // mails being taken, and the most at once
	fail     string              // a recipient whose first mail is refused for a while
	failed   bool
}

func (k *laneServer) NewSession(*smtp.Conn) (smtp.Session, error) { return &laneSession{k: k}, nil }

type laneSession struct {
	k  *laneServer
	to string
}

func (s *laneSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *laneSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = to
	return nil
}
func (s *laneSession) Reset()        {}
func (s *laneSession) Logout() error { return nil }

func (s *laneSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	k := s.k
	k.mu.Lock()
	k.now++
	k.top = max(k.top, k.now)
	k.mu.Unlock()
	time.Sleep(5 * time.Millisecond) // long enough for the other lanes' sends to meet this one
	k.mu.Lock()
	defer k.mu.Unlock()
	k.now--
	if s.to == k.fail && !k.failed {
		k.failed = true
		return &smtp.SMTPError{Code: 451, Message: "try again later"}
	}
	_, subject, _ := strings.Cut(string(raw), "Subject: ")
	subject, _, _ = strings.Cut(subject, "\r\n")
	k.got[s.to] = append(k.got[s.to], subject)
	return nil
}

// TestOutboxConnections: with several connections the mails of different
// recipients go at once over an SMTP server, and each recipient's
// arrive one after another in the order queued, also behind one that
// had to be tried again.
func TestOutboxConnections(t *testing.T) {
	t.Parallel()
	k := &laneServer{got: map[string][]string{}}
	srv := smtp.NewServer(k)
	srv.Domain = "sink.example.org"
	srv.ErrorLog = log.New(io.Discard, "", 0)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	s, err := mailer.NewSMTP("smtp://"+l.Addr().String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.MaxIdle = 4
	t.Cleanup(func() { s.Close() })

	const conns = 4
	h := newHarnessWith(t, Config{Connections: conns})
	// Four players, whose mails go in four lanes.
	var players []string
	for i := range conns {
		players = append(players, fmt.Sprintf("p%d", i))
	}
	k.fail = players[1] + "@players.example"
	const each = 6
	want := map[string][]string{}
	for i := range each {
		for _, p := range players {
			subject := fmt.Sprintf("mail %d to %s", i, p)
			h.queueSubject(p, subject)
			want[p+"@players.example"] = append(want[p+"@players.example"], subject)
		}
	}
	sent := 0
	for range 3 {
		n, err := h.o.SendDue(context.Background(), s)
		if err != nil {
			t.Fatalf("SendDue: %v", err)
		}
		sent += n
		h.clock.Advance(2 * lastRetry) // the mail refused once is due again
	}
	if sent != conns*each {
		t.Errorf("%d mails sent, want %d", sent, conns*each)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for to, subjects := range want {
		if !slices.Equal(k.got[to], subjects) {
			t.Errorf("%s got %q, want %q", to, k.got[to], subjects)
		}
	}
	if k.top < 2 {
		t.Errorf("at most %d mails were sent at once over %d connections", k.top, conns)
	}
	t.Logf("at most %d mails at once", k.top)
}

// TestSpread: a round's mails go into lanes each recipient's together, in
// order, and the lanes as even as can be.
func TestSpread(t *testing.T) {
	t.Parallel()
	var due []db.Mail
	counts := map[string]int{"a": 5, "b": 3, "c": 3, "d": 2, "e": 1, "f": 1, "g": 1}
	for i := 0; len(due) < 16; i++ {
		for _, to := range []string{"a", "b", "c", "d", "e", "f", "g"} {
			if counts[to] > 0 {
				counts[to]--
				due = append(due, db.Mail{ID: int64(len(due) + 1), To: to})
			}
		}
	}
	lanes := spread(due, 4)
	sizes := []int{}
	where := map[string]int{}
	for i, l := range lanes {
		sizes = append(sizes, len(l))
		last := map[string]int64{}
		for _, m := range l {
			if j, ok := where[m.To]; ok && j != i {
				t.Errorf("%s's mails are in lanes %d and %d", m.To, j, i)
			}
			where[m.To] = i
			if m.ID < last[m.To] {
				t.Errorf("lane %d sends %s's mail %d after %d", i, m.To, m.ID, last[m.To])
			}
			last[m.To] = m.ID
		}
	}
	if slices.Max(sizes) != 5 || slices.Min(sizes) != 3 {
		t.Errorf("lanes of %v mails, want 5 at most (a's) and 3 at least", sizes)
	}
}
