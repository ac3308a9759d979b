package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/templates"
)

// gameMail queues a mail about game g to one of its players, in the
// game's thread (M9), and returns its Message-ID. html, when not empty, is
// the mail's HTML alternative (M12).
func (w *work) gameMail(ctx context.Context, to db.Player, g db.Game, subject, body, html string) (string, error) {
	o := w.mailTo(to, subject, body)
	o.HTML = html
	return w.threadMail(ctx, g, outbox.Mail{Out: o})
}

// renderedGameMail is gameMail with the words rendered by render when the
// mail is composed, apart from the transaction (outbox.Mail.Render).
func (w *work) renderedGameMail(ctx context.Context, to db.Player, g db.Game, render func(*mailmsg.Outgoing) error) (string, error) {
	return w.threadMail(ctx, g, outbox.Mail{Out: w.mailTo(to, "", ""), Render: render})
}

// threadMail queues m about game g, in the game's thread.
func (w *work) threadMail(ctx context.Context, g db.Game, m outbox.Mail) (string, error) {
	if g.ThreadRoot != "" {
		m.Out.InReplyTo = []string{g.ThreadRoot}
		m.Out.References = []string{g.ThreadRoot}
	}
	m.Game = g.ID
	return w.enqueue(ctx, m)
}

// mailTo is a mail to a player, whose replies go to the player's personal
// address.
func (w *work) mailTo(to db.Player, subject, body string) mailmsg.Outgoing {
	return mailmsg.Outgoing{
		From:     w.s.address,
		FromName: w.s.name,
		ReplyTo:  w.s.personal(to),
		To:       to.Address,
		ToName:   to.Handle,
		Subject:  subject,
		Text:     body,
		Language: string(w.lang(to)),
		Date:     w.now,
	}
}

// sendReply queues the one answer to the mail, in reply to it.
func (h *handling) sendReply(ctx context.Context) error {
	answered := h.mail.Subject
	if h.subjectCommand {
		answered = ""
	}
	data := templates.ReplyData{Lang: h.replyLang(), Subject: answered, Sections: h.reply}
	if h.replyGame != 0 {
		st, err := game.Load(ctx, h.tx, h.replyGame, h.now)
		if err != nil && !errors.Is(err, db.ErrNotFound) {
			return err
		}
		if err == nil {
			g := gameWords(&st)
			if h.sender != nil {
				if err := h.subject(ctx, &g, *h.sender); err != nil {
					return err
				}
			}
			data.Game = &g
		}
	}
	subject, body, err := templates.Reply(data)
	if err != nil {
		return err
	}
	o := h.answerTo(subject, body)
	root, err := h.threadRoot(ctx, h.replyGame)
	if err != nil {
		return err
	}
	if mailmsg.ValidID(h.mail.MessageID) {
		o.InReplyTo = []string{h.mail.MessageID}
	}
	o.References = h.mail.ReplyReferences(root)
	capped := h.capped
	if _, err = h.enqueue(ctx, outbox.Mail{Out: o, Game: h.replyGame}); err != nil || h.capped == capped {
		return err
	}
	h.note("not answered: a cap is reached")
	return nil
}

// capNotice tells the one who caused the mail, once an hour at most, that
// mails it caused were held back by a cap (M29). It goes out past the
// caps, as the one mail that says so.
func (h *handling) capNotice(ctx context.Context) error {
	if h.capped == 0 {
		return nil
	}
	last, err := h.tx.CapNoticeAt(ctx, h.cause)
	if err != nil || !last.IsZero() && h.now.Sub(last) < time.Hour {
		return err
	}
	subject, body, err := templates.Reply(templates.ReplyData{Lang: h.replyLang(), Subject: h.mail.Subject, Sections: []templates.Section{
		templates.CapNotice{Mails: h.capped, PerRecipient: h.s.outbox.Caps().PerRecipient, PerSender: h.s.outbox.Caps().PerSender}}})
	if err != nil {
		return err
	}
	o := h.answerTo(subject, body)
	if _, err := h.enqueue(ctx, outbox.Mail{Out: o, Notice: true}); err != nil {
		return err
	}
	h.note(fmt.Sprintf("%d mails held back by a cap: told", h.capped))
	return h.tx.SetCapNotice(ctx, h.cause, h.now)
}

// answerTo is a mail to the sender of the mail handled: a registered
// player at the registered address only (M5), anyone else at the From
// address.
func (h *handling) answerTo(subject, body string) mailmsg.Outgoing {
	if h.sender != nil {
		return h.mailTo(*h.sender, subject, body)
	}
	return mailmsg.Outgoing{From: h.s.address, FromName: h.s.name, To: h.mail.From, Subject: subject, Text: body,
		Language: string(h.replyLang()), Date: h.now}
}

// threadRoot returns the first Message-ID of a game's thread, or "" when
// there is no such game.
func (h *handling) threadRoot(ctx context.Context, game int64) (string, error) {
	if game == 0 {
		return "", nil
	}
	g, err := h.tx.Game(ctx, game)
	if errors.Is(err, db.ErrNotFound) {
		return "", nil
	}
	return g.ThreadRoot, err
}

// enqueue queues a mail in the work's transaction, caused by the work's
// cause, and returns its Message-ID: "" for mail to the robot, which
// reads none and is not queued, and for mail held back by a cap, which
// is counted in capped.
func (w *work) enqueue(ctx context.Context, m outbox.Mail) (string, error) {
	if m.Cause == "" {
		m.Cause = w.cause
	}
	m.Asked = m.Asked || w.askedBy != "" && strings.EqualFold(m.Out.To, w.askedBy)
	id, err := w.s.outbox.Queue(ctx, w.tx, m, w.now)
	if outbox.IsCapped(err) {
		w.capped++
		return "", nil
	}
	if err == nil && id != "" {
		w.queued++
	}
	return id, err
}
