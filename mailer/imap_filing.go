package mailer

import (
	"context"
	"errors"
	"time"

	"github.com/emersion/go-imap/v2"
)

// settle takes in the results of handling mails, in UID order: the
// handled ones are filed together, then each failure is counted (failed).
// When ctx is done it files what was handled and returns, counting no
// failure.
func (b *Inbox) settle(ctx context.Context, cn *conn, st *inboxState, mails []fetched, errs []error) error {
	var done []imap.UID
	for i, m := range mails {
		if errs[i] == nil {
			b.log.Debug("mail handled", "uid", m.uid, "message_id", m.in.MessageID)
			delete(st.tries, m.uid)
			delete(st.charged, m.uid)
			st.pending[m.uid] = true
			done = append(done, m.uid)
		}
	}
	if len(done) > 0 {
		if err := b.file(ctx, cn, st, done); err != nil {
			return err
		}
	}
	if len(done) < len(mails) {
		var failed []imap.UID
		for i, m := range mails {
			if errs[i] != nil {
				failed = append(failed, m.uid)
			}
		}
		if err := b.unflag(ctx, cn, failed); err != nil {
			return err
		}
	}
	for i, m := range mails {
		if errs[i] == nil {
			st.lastUID, st.lastFailed = m.uid, false
			b.status.handlerDown.Store(false)
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := b.failed(ctx, cn, st, m.uid, m.in, max(m.tries, st.tries[m.uid]), errs[i]); err != nil {
			return err
		}
		delete(st.charged, m.uid)
	}
	return nil
}

// file marks handled messages: \Seen, then moved to the processed
// mailbox, each step one command for all of them. It works on after ctx
// is done, for a short while, so that handled mail is not handled again
// after a restart. Once the messages are filed (or left \Seen where they
// cannot be moved) they are no longer pending.
func (b *Inbox) file(ctx context.Context, cn *conn, st *inboxState, uids []imap.UID) error {
	fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(shutdownGrace, cancel) })()

	set := imap.UIDSetNum(uids...)
	if err := cn.do(fctx, "store \\Seen", func() error {
		return cn.c.Store(set, &imap.StoreFlags{
			Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen, flagDone},
		}, nil).Close()
	}); err != nil {
		return err
	}
	if cn.processed {
		left, err := b.move(fctx, cn, uids, b.processed)
		if err := b.fileFailed(st, left, err); err != nil {
			return err
		}
	}
	for _, uid := range uids {
		delete(st.pending, uid)
	}
	return nil
}

// move moves messages (ascending UIDs) to another mailbox: with MOVE when
// offered, else with COPY and, where UIDPLUS allows expunging just them,
// UID EXPUNGE. It returns the messages left in the mailbox: without
// UIDPLUS all of them, copied, with a nil error; otherwise those not moved
// and why. A refusal by the server is an *imap.Error or errNothingCopied.
func (b *Inbox) move(fctx context.Context, cn *conn, uids []imap.UID, mailbox string) (left []imap.UID, err error) {
	set := imap.UIDSetNum(uids...)
	if cn.caps.Has(imap.CapMove) {
		err := cn.do(fctx, "move", func() error {
			_, err := cn.c.Move(set, mailbox).Wait()
			return err
		})
		if err != nil {
			return uids, err
		}
		return nil, nil
	}
	// Client.Move would fall back to COPY + STORE + EXPUNGE, which may
	// expunge other messages: do it step by step, and only where UIDPLUS
	// lets the expunge name these messages alone.
	var copied *imap.CopyData
	if err := cn.do(fctx, "copy", func() (err error) {
		copied, err = cn.c.Copy(set, mailbox).Wait()
		return err
	}); err != nil {
		return uids, err
	}
	if !cn.caps.Has(imap.CapUIDPlus) {
		return uids, nil
	}
	// Expunge only what the server says it copied.
	var done []imap.UID
	for _, uid := range uids {
		if copied.SourceUIDs.Contains(uid) {
			done = append(done, uid)
		} else {
			left = append(left, uid)
		}
	}
	if len(done) == 0 {
		return uids, errNothingCopied
	}
	set = imap.UIDSetNum(done...)
	if err := cn.do(fctx, "store \\Deleted", func() error {
		return cn.c.Store(set, &imap.StoreFlags{
			Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted},
		}, nil).Close()
	}); err != nil {
		return uids, err
	}
	if err := cn.do(fctx, "uid expunge", func() error { return cn.c.UIDExpunge(set).Close() }); err != nil {
		return uids, err
	}
	if len(left) > 0 {
		return left, errNothingCopied
	}
	return nil, nil
}

// errNothingCopied is a COPY answered OK whose COPYUID lacks a message.
var errNothingCopied = errors.New("imap copy: the server did not copy the message")

// fileFailed sorts a failure to move messages that are already \Seen: a
// refusal by the server leaves them in place (they will not be handled
// again), anything else ends the connection.
func (b *Inbox) fileFailed(st *inboxState, uids []imap.UID, err error) error {
	if err == nil {
		return nil // moved, or copied and the originals stay \Seen (no UIDPLUS)
	}
	if !refused(err) {
		return err
	}
	for _, uid := range uids {
		st.unfiled[uid] = true
		b.log.Warn("mail handled but not moved; it stays, flagged \\Seen", "uid", uid, "mailbox", b.processed, "err", err)
	}
	return nil
}
