package tell

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/templates"
)

// Work is what one transaction does, for a mail, the clock, the robot or
// the operator: the changes it makes and the mails they cause, queued at
// once (stories: at Flush).
type Work struct {
	*Teller
	Tx  *db.Tx
	Now time.Time

	notes  []string // what was done, for the summary
	queued int      // mails queued
	capped int      // mails held back by a cap (M29)

	// Cause is who the mails are counted against (outbox.Mail.Cause):
	// the sender of the mail handled; "" for the server itself. AskedBy
	// is the address of the sender of a proven mail, whose mails are
	// always sent (outbox.Mail.Asked).
	Cause, AskedBy string

	// Earlier are the moves the next board mails show before theirs: a
	// player's move whose mail waited for the robot's answer.
	Earlier []templates.Move
	// Opening is the robot's level when its first move, as white, is
	// the first the challenger hears of the game: the next board mail
	// says that the challenge was accepted too.
	Opening int

	// stories are what happened in each game, to mail (Flush).
	stories []*story
}

// NewWork returns the Work of a transaction at the time now.
func (t *Teller) NewWork(tx *db.Tx, now time.Time) *Work {
	return &Work{Teller: t, Tx: tx, Now: now}
}

// Note records what was done, for the summary of the work.
func (w *Work) Note(s string) { w.notes = append(w.notes, s) }

// Notes are what was done, in order.
func (w *Work) Notes() []string { return w.notes }

// Queued is how many mails the work queued.
func (w *Work) Queued() int { return w.queued }

// Capped is how many mails a cap held back (M29).
func (w *Work) Capped() int { return w.capped }

// Lang is the language of the mails to p.
func (w *Work) Lang(p db.Player) lang.Code { return w.Teller.Lang(p) }

// MailTo is a mail to a player, whose replies go to the player's
// personal address.
func (w *Work) MailTo(to db.Player, subject, body string) mailmsg.Outgoing {
	return mailmsg.Outgoing{
		From:     w.address,
		FromName: w.settings.Name,
		ReplyTo:  w.Personal(to),
		To:       to.Address,
		ToName:   to.Handle,
		Subject:  subject,
		Text:     body,
		Language: string(w.Lang(to)),
		Date:     w.Now,
	}
}

// MailToAddress is a mail to an address that is no player's.
func (w *Work) MailToAddress(to string, l lang.Code, subject, body string) mailmsg.Outgoing {
	return mailmsg.Outgoing{From: w.address, FromName: w.settings.Name, To: to, Subject: subject, Text: body,
		Language: string(l), Date: w.Now}
}

// Enqueue queues a mail in the work's transaction, caused by the work's
// Cause, and returns its Message-ID: "" for mail to the robot, which
// reads none and is not queued, and for mail held back by a cap, which
// is counted in Capped.
func (w *Work) Enqueue(ctx context.Context, m outbox.Mail) (string, error) {
	if m.Cause == "" {
		m.Cause = w.Cause
	}
	m.Asked = m.Asked || w.AskedBy != "" && strings.EqualFold(m.Out.To, w.AskedBy)
	id, err := w.outbox.Queue(ctx, w.Tx, m, w.Now)
	if outbox.IsCapped(err) {
		w.capped++
		return "", nil
	}
	if err == nil && id != "" {
		w.queued++
	}
	return id, err
}

// GameMail queues a mail about game g to one of its players, in the
// game's thread (M9), and returns its Message-ID. html, when not empty,
// is the mail's HTML alternative (M12).
func (w *Work) GameMail(ctx context.Context, to db.Player, g db.Game, subject, body, html string) (string, error) {
	o := w.MailTo(to, subject, body)
	o.HTML = html
	return w.ThreadMail(ctx, g, outbox.Mail{Out: o})
}

// RenderedGameMail is GameMail with the words rendered by render when
// the mail is composed, apart from the transaction (outbox.Mail.Render).
func (w *Work) RenderedGameMail(ctx context.Context, to db.Player, g db.Game, render func(*mailmsg.Outgoing) error) (string, error) {
	return w.ThreadMail(ctx, g, outbox.Mail{Out: w.MailTo(to, "", ""), Render: render})
}

// ThreadMail queues m about game g, in the game's thread.
func (w *Work) ThreadMail(ctx context.Context, g db.Game, m outbox.Mail) (string, error) {
	if g.ThreadRoot != "" {
		m.Out.InReplyTo = []string{g.ThreadRoot}
		m.Out.References = []string{g.ThreadRoot}
	}
	m.Game = g.ID
	return w.Enqueue(ctx, m)
}

// SetThreadRoot records the first mail of a game's thread (M9).
func (w *Work) SetThreadRoot(ctx context.Context, game int64, id string) error {
	return w.Tx.SetThreadRoot(ctx, game, id, w.Now)
}

// ThreadRoot returns the first Message-ID of a game's thread, or "" when
// there is no such game.
func (w *Work) ThreadRoot(ctx context.Context, game int64) (string, error) {
	if game == 0 {
		return "", nil
	}
	g, err := w.Tx.Game(ctx, game)
	if isNotFound(err) {
		return "", nil
	}
	return g.ThreadRoot, err
}

// Subject sets g's SubjectLang to the language of its Subject for p: the
// one of p's first mail about the game (M22), which this records when
// there is none yet.
func (w *Work) Subject(ctx context.Context, g *templates.Game, p db.Player) error {
	l, err := w.Tx.SubjectLanguage(ctx, g.ID, p.ID, string(w.Lang(p)))
	if err != nil {
		return fmt.Errorf("subject of game %d for %s: %w", g.ID, p.Handle, err)
	}
	g.SubjectLang = lang.Code(l)
	return nil
}

// isNotFound reports whether err is a missing row.
func isNotFound(err error) bool { return errors.Is(err, db.ErrNotFound) }
