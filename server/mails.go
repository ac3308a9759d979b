package server

import (
	"context"
	"errors"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/templates"
)

// gameMail queues a mail about game g to one of its players, in the
// game's thread (M9), and returns its Message-ID. html, when not empty, is
// the mail's HTML alternative (M12).
func (w *work) gameMail(ctx context.Context, to db.Player, g db.Game, subject, body, html string) (string, error) {
	o := w.mailTo(to, subject, body)
	o.HTML = html
	if g.ThreadRoot != "" {
		o.InReplyTo = []string{g.ThreadRoot}
		o.References = []string{g.ThreadRoot}
	}
	return w.enqueue(ctx, o, g.ID)
}

// mailTo is a mail to a player, whose replies go to the player's personal
// address.
func (w *work) mailTo(to db.Player, subject, body string) mailmsg.Outgoing {
	return mailmsg.Outgoing{
		From:    w.s.address,
		ReplyTo: w.s.personal(to),
		To:      to.Address,
		ToName:  to.Handle,
		Subject: subject,
		Text:    body,
		Date:    w.now,
	}
}

// sendReply queues the one answer to the mail, in reply to it.
func (h *handling) sendReply(ctx context.Context) error {
	answered := h.mail.Subject
	if h.subjectCommand {
		answered = ""
	}
	subject, body, err := templates.Reply(templates.ReplyData{Subject: answered, Sections: h.reply})
	if err != nil {
		return err
	}
	// M5: a registered player is answered at the registered address only.
	o := mailmsg.Outgoing{From: h.s.address, To: h.mail.From, Subject: subject, Text: body, Date: h.now}
	if h.sender != nil {
		o = h.mailTo(*h.sender, subject, body)
	}
	root, err := h.threadRoot(ctx, h.replyGame)
	if err != nil {
		return err
	}
	if mailmsg.ValidID(h.mail.MessageID) {
		o.InReplyTo = []string{h.mail.MessageID}
	}
	o.References = h.mail.ReplyReferences(root)
	if over, err := h.overReplyLimit(ctx, o.To); over || err != nil {
		return err
	}
	_, err = h.enqueue(ctx, o, h.replyGame)
	return err
}

// overReplyLimit reports whether the answers to address in the last hour
// have reached the outbox's cap (so that we are never a mail cannon), and
// notes it when they have.
func (h *handling) overReplyLimit(ctx context.Context, address string) (bool, error) {
	ok, err := h.s.outbox.Allowed(ctx, h.tx, address, h.now)
	if err != nil || ok {
		return false, err
	}
	h.note("not answered: reply limit")
	return true, nil
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

// enqueue queues a mail about game (0 for none) in the work's
// transaction, and returns its Message-ID: "" for mail to the robot,
// which reads none and is not queued.
func (w *work) enqueue(ctx context.Context, o mailmsg.Outgoing, game int64) (string, error) {
	id, err := w.s.outbox.Queue(ctx, w.tx, o, game, w.now)
	if err == nil && id != "" {
		w.queued++
	}
	return id, err
}
