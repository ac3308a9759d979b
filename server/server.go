// Package server reads the commands players send by mail and hands each
// to the room that owns it: it proves the sender, looks the command up in
// one table (who may give it, which room's handler carries it out), and
// gathers the answer to the mail. It makes the rooms' workers (the clock,
// the robot, the analyses) and wires them together; it owns no feature.
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

	"github.com/congobymail/congo/account"
	"github.com/congobymail/congo/analyst"
	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/operator"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/play"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/tournament"
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

	// Metrics, when set, is told about each mail handled, each move of
	// the robot and each analysis.
	Metrics Metrics

	// Tables, when set, are the endgame tables the robot (levels 4 and
	// 5) and the analyses use (M77).
	Tables engine.Tables

	// Outbox is where the mails the server causes are queued; its caps
	// (outbox.Config.MaxPerHour) say when an answer is not sent. Default
	// an outbox of DB from Address, with the settings' caps (zero for the
	// defaults).
	Outbox *outbox.Outbox
}

// Server handles incoming mail and sends the answers.
type Server struct {
	db            *db.DB
	tell          *tell.Teller
	trustAuthServ string
	operator      string
	now           func() time.Time
	log           *slog.Logger
	metrics       Metrics

	clock    *play.Clock
	robot    *robot.Worker
	analyses *analyst.Queue
}

// New returns a Server for cfg, with the workers of its rooms: the clock
// (Clock), and the robot's worker (Robot), which makes the analyses
// between its turns.
func New(cfg Config) (*Server, error) {
	if cfg.DB == nil {
		return nil, errors.New("server: no database")
	}
	if h := cfg.RobotHandle(); h != "" && !parser.ValidHandle(h) {
		return nil, fmt.Errorf("server: robot handle %q is not a handle", h)
	}
	if l := lang.Code(cfg.Language); l != "" && !l.Valid() {
		return nil, fmt.Errorf("server: language %q is none of %v", cfg.Language, lang.All)
	}
	s := &Server{db: cfg.DB, trustAuthServ: cfg.TrustAuthServ, operator: strings.ToLower(cfg.Operator),
		now: cfg.Now, log: cfg.Logger, metrics: cfg.Metrics}
	if s.now == nil {
		s.now = time.Now
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Reader
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	ob := cfg.Outbox
	if ob == nil {
		local, domain, _ := strings.Cut(strings.ToLower(cfg.Address), "@")
		hostname := cfg.Hostname
		if hostname == "" {
			hostname = domain
		}
		var err error
		ob, err = outbox.New(outbox.Config{DB: s.db, From: local + "@" + domain, Hostname: hostname, Now: s.now, Logger: s.log,
			MaxPerRecipient: cfg.MaxPerRecipient, MaxPerSender: cfg.MaxPerSender, MaxPerHour: cfg.MaxPerHour})
		if err != nil {
			return nil, err
		}
	}
	t, err := tell.New(cfg.Settings, ob, cfg.Rand, s.log)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	t.GamesEnded = tournament.GamesEnded
	s.tell = t
	s.clock = play.NewClock(s.db, t, s.now)
	s.robot = robot.NewWorker(s.db, t, s.now)
	s.analyses = analyst.NewQueue(s.db, t, s.now)
	s.robot.Analyses, s.analyses.Robot, s.robot.AfterMove = s.analyses, s.robot, s.clock.Wake
	s.robot.Tables, s.analyses.Tables = cfg.Tables, cfg.Tables
	if s.metrics != nil {
		s.robot.Metrics, s.analyses.Metrics = s.metrics, s.metrics
	}
	return s, nil
}

// Outbox is where the server queues its mails.
func (s *Server) Outbox() *outbox.Outbox { return s.tell.Outbox() }

// Clock is the worker of the games' clocks: run it (Clock.Run) beside
// the mail.
func (s *Server) Clock() *play.Clock { return s.clock }

// Robot is the robot's worker, which makes the analyses between its
// turns: run it (robot.Worker.Run) beside the mail, once EnsureRobot
// has registered the robot.
func (s *Server) Robot() *robot.Worker { return s.robot }

// Analyses is the queue of the analyses players ask for, which the
// robot's worker makes.
func (s *Server) Analyses() *analyst.Queue { return s.analyses }

// EnsureRobot registers the robot player, unless it is registered
// already or there is none (Config.Robot). A player of another address
// holding the robot's handle is an error.
func (s *Server) EnsureRobot(ctx context.Context) error {
	return s.robot.Ensure(ctx, func() (string, error) { return account.NewSecret(s.tell.Rand()) })
}

// Admin carries out an operator's command given on the machine (congod
// admin), in one transaction, and mails the players concerned. by says
// who gave it, for the log. It returns what was done; an
// *operator.Error when the command cannot be carried out.
func (s *Server) Admin(ctx context.Context, c parser.Command, by string) (string, error) {
	var summary string
	_, err := s.tell.Tx(ctx, s.db, s.now().UTC(), func(w *tell.Work) (err error) {
		summary, err = operator.Do(ctx, w, c, by)
		return err
	})
	return summary, err
}

// ProcessMail handles one incoming mail in one transaction: it carries out
// the mail's commands and queues every mail they cause, and records the
// mail so that it is never handled twice. It returns nil when the mail is
// handled, including a mail handled before and one that must not be
// answered, so that the caller can file it away. An error means that
// nothing was done (the transaction was rolled back), as when the
// database is busy or ctx ends: the caller should try again later.
func (s *Server) ProcessMail(ctx context.Context, m *mailmsg.Incoming) error {
	return s.ProcessMails(ctx, []*mailmsg.Incoming{m})[0]
}

// ProcessMails processes mails in the order given, as ProcessMail does each,
// but in one transaction, so that the cost of a commit (a sync to disk)
// is shared. Each mail is handled in a savepoint of it: a mail that fails
// is undone alone and gets its error, and the others go on. When the
// commit fails, every mail gets the error. When SQLite rolls back the
// whole transaction on a mail's error (a full disk, say), each mail is
// handled again in a transaction of its own, so that the error is the
// failing mail's alone. A panic goes on to the caller, with nothing done.
func (s *Server) ProcessMails(ctx context.Context, ms []*mailmsg.Incoming) []error {
	errs := make([]error, len(ms))
	results := make([]mailResult, len(ms))
	begun := s.now().UTC()
	err := s.db.Tx(ctx, func(tx *db.Tx) error {
		for i, m := range ms {
			errs[i] = tx.Savepoint(ctx, func() error {
				var err error
				results[i], err = s.processIn(ctx, tx, m)
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
			errs[i] = s.ProcessMails(ctx, ms[i:i+1])[0]
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
			s.count(Processed{MessageID: m.MessageID, Outcome: Failed, Duration: took, Err: errs[i]})
		case r.seen:
			s.log.Info("mail seen before", "message_id", m.MessageID, "uid", m.UID)
			s.count(Processed{MessageID: m.MessageID, Outcome: Duplicate, Duration: took})
		default:
			h := r.h
			o := Processed{MessageID: m.MessageID, Handle: h.senderHandle(), Commands: h.kinds, Outcome: h.outcome(), Duration: took}
			s.log.Info("mail handled", "message_id", m.MessageID, "handle", o.Handle, "commands", strings.Join(o.Commands, ","),
				"outcome", string(o.Outcome), "duration", took, "queued", h.w.Queued(), "summary", r.summary)
			s.count(o)
			queued = queued || h.w.Queued() > 0
		}
	}
	if err == nil {
		if queued {
			s.Outbox().Wake()
		}
		s.clock.Wake()
		s.robot.Wake()
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
	h       *processing
	summary string
}

// processIn handles m in tx, unless it was handled before, and records it.
func (s *Server) processIn(ctx context.Context, tx *db.Tx, m *mailmsg.Incoming) (mailResult, error) {
	r := mailResult{start: s.now().UTC()}
	seen, err := tx.Seen(ctx, m.MessageID, m.UIDValidity, m.UID)
	if err != nil || seen {
		r.seen = seen
		return r, err
	}
	r.h = s.newProcessing(tx, m, r.start)
	if r.summary, err = r.h.handle(ctx); err != nil {
		return r, err
	}
	return r, tx.AddProcessed(ctx, db.Processed{
		MessageID: m.MessageID, UIDValidity: m.UIDValidity, UID: m.UID, At: r.start, Summary: r.summary,
	})
}

// count tells the Metrics, if any, about a mail.
func (s *Server) count(o Processed) {
	if s.metrics != nil {
		s.metrics.MailProcessed(o)
	}
}
