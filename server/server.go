// Package server carries out the commands players send by mail: who may
// give which command, what each does (through game for the life of a
// game), and the mails its events cause to each recipient; and it wires
// the background loops of the clock and the robot.
package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/congobymail/congo/analysis"
	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/parser"
)

// Config configures a Server: the settings, held whole, and what it
// works with.
type Config struct {
	// Settings are congod's settings (config.Settings). Those the server
	// reads: Address (required; players' personal addresses are
	// local+secret@domain), Name (M26, default "Congo"), Hostname (of the
	// Message-IDs, default the domain of Address), TrustAuthServ (the
	// authserv-id of a receiving server whose Authentication-Results
	// header is trusted: a mail it found to pass DMARC for the From
	// domain proves its sender), Operator (whose proven mail may carry
	// the operator's commands), Robot (the computer player's handle; ""
	// or "off" for none), PublicURL (the web pages' address, resolved:
	// every board mail names its game's page under it; "" for none),
	// RobotGames, ChallengesPerDay and AnalysesPerDay (M29, M49: zero for
	// the default, negative for no cap), AnalysisNodes (M51) and Language
	// (M40).
	config.Settings

	// DB is where players, games and the outbox live. Required.
	DB *db.DB

	// Now gives the time; default time.Now. The server reads no other
	// clock.
	Now func() time.Time

	// Rand is the source of personal address secrets; default
	// crypto/rand.Reader.
	Rand io.Reader

	// Logger receives what the server does; default slog.Default().
	Logger *slog.Logger

	// Metrics, when set, is told about each mail handled.
	Metrics Metrics

	// Outbox is where the mails the server causes are queued; its caps
	// (outbox.Config.MaxPerHour) say when an answer is not sent. Default
	// an outbox of DB with the defaults, from Address.
	Outbox *outbox.Outbox
}

// Server handles incoming mail and sends the answers.
type Server struct {
	db            *db.DB
	local, domain string // the two halves of Address
	address       string
	name          string
	hostname      string
	trustAuthServ string
	now           func() time.Time
	rand          io.Reader
	log           *slog.Logger
	metrics       Metrics
	operator      string
	outbox        *outbox.Outbox

	robot     string // the robot's handle; "" for none
	publicURL string // the web's pages, ending in "/"; "" for none

	robotGames, challengesPerDay int
	analysesPerDay               int
	analysisNodes                int64
	language                     lang.Code // the default language (M40)

	// clockWake tells the clock loop that a mail was handled; robotWake
	// tells the robot loop.
	clockWake chan struct{}
	robotWake chan struct{}
}

// New returns a Server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.DB == nil {
		return nil, errors.New("server: no database")
	}
	local, domain, ok := strings.Cut(strings.ToLower(cfg.Address), "@")
	if !ok || local == "" || domain == "" || strings.ContainsAny(local, "+@ <>") || strings.ContainsAny(domain, "@ <>") {
		return nil, fmt.Errorf("server: address %q is not of the form local@domain without +", cfg.Address)
	}
	if h := cfg.RobotHandle(); h != "" && !parser.ValidHandle(h) {
		return nil, fmt.Errorf("server: robot handle %q is not a handle", h)
	}
	if l := lang.Code(cfg.Language); l != "" && !l.Valid() {
		return nil, fmt.Errorf("server: language %q is none of %v", cfg.Language, lang.All)
	}
	s := &Server{
		db:               cfg.DB,
		local:            local,
		domain:           domain,
		address:          local + "@" + domain,
		name:             cfg.Name,
		hostname:         cfg.Hostname,
		trustAuthServ:    cfg.TrustAuthServ,
		now:              cfg.Now,
		rand:             cfg.Rand,
		log:              cfg.Logger,
		metrics:          cfg.Metrics,
		operator:         strings.ToLower(cfg.Operator),
		outbox:           cfg.Outbox,
		robot:            cfg.RobotHandle(),
		publicURL:        cfg.PublicURL,
		robotGames:       cfg.RobotGames,
		challengesPerDay: cfg.ChallengesPerDay,
		analysesPerDay:   cfg.AnalysesPerDay,
		analysisNodes:    cfg.AnalysisNodes,
		language:         cfg.Lang(),
		clockWake:        make(chan struct{}, 1),
		robotWake:        make(chan struct{}, 1),
	}
	if s.name == "" {
		s.name = "Congo"
	}
	if s.robotGames == 0 {
		s.robotGames = config.DefaultRobotGames
	}
	if s.challengesPerDay == 0 {
		s.challengesPerDay = config.DefaultChallengesPerDay
	}
	if s.analysesPerDay == 0 {
		s.analysesPerDay = config.DefaultAnalysesPerDay
	}
	if s.analysisNodes <= 0 {
		s.analysisNodes = analysis.DefaultNodes
	}
	if s.hostname == "" {
		s.hostname = domain
	}
	if s.publicURL != "" && !strings.HasSuffix(s.publicURL, "/") {
		s.publicURL += "/"
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.rand == nil {
		s.rand = rand.Reader
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.outbox == nil {
		ob, err := outbox.New(outbox.Config{DB: s.db, From: s.address, Hostname: s.hostname, Now: s.now, Logger: s.log})
		if err != nil {
			return nil, err
		}
		s.outbox = ob
	}
	return s, nil
}

// Outbox is where the server queues its mails.
func (s *Server) Outbox() *outbox.Outbox { return s.outbox }

// HandleMail handles one incoming mail in one transaction: it carries out
// the mail's commands and queues every mail they cause, and records the
// mail so that it is never handled twice. It returns nil when the mail is
// handled, including a mail handled before and one that must not be
// answered, so that the caller can file it away. An error means that
// nothing was done (the transaction was rolled back), as when the
// database is busy or ctx ends: the caller should try again later.
func (s *Server) HandleMail(ctx context.Context, m *mailmsg.Incoming) error {
	return s.HandleMails(ctx, []*mailmsg.Incoming{m})[0]
}

// HandleMails handles mails in the order given, as HandleMail does each,
// but in one transaction, so that the cost of a commit (a sync to disk)
// is shared. Each mail is handled in a savepoint of it: a mail that fails
// is undone alone and gets its error, and the others go on. When the
// commit fails, every mail gets the error. When SQLite rolls back the
// whole transaction on a mail's error (a full disk, say), each mail is
// handled again in a transaction of its own, so that the error is the
// failing mail's alone. A panic goes on to the caller, with nothing done.
func (s *Server) HandleMails(ctx context.Context, ms []*mailmsg.Incoming) []error {
	errs := make([]error, len(ms))
	results := make([]mailResult, len(ms))
	begun := s.now().UTC()
	err := s.db.Tx(ctx, func(tx *db.Tx) error {
		for i, m := range ms {
			errs[i] = tx.Savepoint(ctx, func() error {
				var err error
				results[i], err = s.handleIn(ctx, tx, m)
				return err
			})
			if errors.Is(errs[i], db.ErrTxAborted) {
				return errs[i]
			}
		}
		return nil
	})
	if errors.Is(err, db.ErrTxAborted) && len(ms) > 1 {
		s.log.Warn("the database rolled back a batch of mail; handling its mails one at a time", "mails", len(ms), "err", err)
		for i := range ms {
			errs[i] = s.HandleMails(ctx, ms[i:i+1])[0]
		}
		return errs
	}
	down := s.databaseDown(ctx, err, errs)
	queued := false
	for i, m := range ms {
		r := &results[i]
		if r.start.IsZero() {
			r.start = begun // not begun: the transaction failed first
		}
		took := s.now().Sub(r.start)
		if err != nil && errs[i] == nil {
			errs[i] = err
		}
		switch {
		case errs[i] != nil:
			errs[i] = fmt.Errorf("handle mail %q from %q: %w", m.MessageID, m.From, errs[i])
			if down != nil {
				errs[i] = &DatabaseDown{Err: errs[i]}
			}
			s.tell(Handled{MessageID: m.MessageID, Outcome: Failed, Duration: took, Err: errs[i]})
		case r.seen:
			s.log.Info("mail seen before", "message_id", m.MessageID, "uid", m.UID)
			s.tell(Handled{MessageID: m.MessageID, Outcome: Duplicate, Duration: took})
		default:
			h := r.h
			o := Handled{MessageID: m.MessageID, Handle: h.senderHandle(), Commands: h.kinds, Outcome: h.outcome(), Duration: took}
			s.log.Info("mail handled", "message_id", m.MessageID, "handle", o.Handle, "commands", strings.Join(o.Commands, ","),
				"outcome", string(o.Outcome), "duration", took, "queued", h.queued, "summary", r.summary)
			s.tell(o)
			queued = queued || h.queued > 0
		}
	}
	if err == nil {
		if queued {
			s.outbox.Wake()
		}
		s.wakeClock()
		s.wakeRobot()
	}
	return errs
}

// DatabaseDown is the error of a mail not handled because the database
// would not take a write: the failure is the database's, not the mail's,
// and the mail is to be tried again as it is, at no cost to it (its
// Unavailable method tells mailer.Inbox so).
type DatabaseDown struct {
	Err error
}

func (e *DatabaseDown) Error() string     { return "the database is down: " + e.Err.Error() }
func (e *DatabaseDown) Unwrap() error     { return e.Err }
func (e *DatabaseDown) Unavailable() bool { return true }

// databaseDown reports, when mails failed, whether the database is at
// fault: it is then down, as a write of its own fails too. It returns
// that write's error, nil when the database works (or nothing failed).
func (s *Server) databaseDown(ctx context.Context, txErr error, errs []error) error {
	failed := txErr != nil
	for _, e := range errs {
		failed = failed || e != nil
	}
	if !failed || ctx.Err() != nil {
		return nil
	}
	err := s.db.Check(ctx, s.now().UTC())
	if err != nil {
		s.log.Error("the database takes no write: mail is not handled until it does", "err", err)
	}
	return err
}

// mailResult is what handling one mail in a transaction came to.
type mailResult struct {
	start   time.Time // when its handling began
	seen    bool      // handled before: nothing done
	h       *handling
	summary string
}

// handleIn handles m in tx, unless it was handled before, and records it.
func (s *Server) handleIn(ctx context.Context, tx *db.Tx, m *mailmsg.Incoming) (mailResult, error) {
	r := mailResult{start: s.now().UTC()}
	seen, err := tx.Seen(ctx, m.MessageID, m.UIDValidity, m.UID)
	if err != nil || seen {
		r.seen = seen
		return r, err
	}
	r.h = s.newHandling(tx, m, r.start)
	if r.summary, err = r.h.handle(ctx); err != nil {
		return r, err
	}
	return r, tx.RecordProcessed(ctx, db.Processed{
		MessageID: m.MessageID, UIDValidity: m.UIDValidity, UID: m.UID, At: r.start, Summary: r.summary,
	})
}

// tell tells the Metrics, if any, about a mail.
func (s *Server) tell(o Handled) {
	if s.metrics != nil {
		s.metrics.MailHandled(o)
	}
}

// personal returns a player's personal address.
func (s *Server) personal(p db.Player) string {
	return s.local + "+" + p.Secret + "@" + s.domain
}

// isOwn reports whether addr is one of the server's addresses: its own
// local part, with or without a +tag, at its domain.
func (s *Server) isOwn(addr string) bool {
	local, domain, ok := cutAddress(addr)
	if !ok || !strings.EqualFold(domain, s.domain) {
		return false
	}
	base, _, _ := strings.Cut(local, "+")
	return strings.EqualFold(base, s.local)
}

// cutAddress splits an address at its last "@".
func cutAddress(addr string) (local, domain string, ok bool) {
	i := strings.LastIndexByte(addr, '@')
	if i <= 0 || i == len(addr)-1 {
		return "", "", false
	}
	return addr[:i], addr[i+1:], true
}
