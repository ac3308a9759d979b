package mailer

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/congobymail/congo/mailmsg"
	"github.com/emersion/go-imap/v2"
)

// tryFlag is the keyword that records n failed tries.
func tryFlag(n int) imap.Flag { return imap.Flag(fmt.Sprintf("%s%d", tryPrefix, n)) }

// unflag takes $CongoHandling and $CongoAlone off messages that failed,
// or were not handled as ctx ended: their failure is known, not a death.
// It works on for a short while after ctx is done.
func (b *Inbox) unflag(ctx context.Context, cn *conn, uids []imap.UID) error {
	fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(shutdownGrace, cancel) })()
	err := cn.do(fctx, "store -"+string(flagHandling), func() error {
		return cn.c.Store(imap.UIDSetNum(uids...), &imap.StoreFlags{
			Op: imap.StoreFlagsDel, Silent: true, Flags: []imap.Flag{flagHandling, flagAlone},
		}, nil).Close()
	})
	if err != nil && refused(err) {
		return nil
	}
	return err
}

// Keywords on messages whose handling failed: tryPrefix+N after N failed
// tries, flagQuarantined on one set aside that could not be moved.
const (
	tryPrefix       = "$CongoTry"
	flagQuarantined = imap.Flag("$CongoQuarantined")
	// flagHandling is set on a batch before it is handed to the handler
	// (flagAlone too when it is one mail), and taken off a mail that
	// fails; flagDone is set with \Seen once the handler committed. A mail
	// flagged flagHandling and not flagDone when read again was being
	// handled when the process died. It is then tried alone; if it was
	// alone already, that death counts as a failed try, so that a mail
	// that kills the process (out of memory, say) is set aside too, and
	// the mails batched with it are not charged.
	flagHandling = imap.Flag("$CongoHandling")
	flagAlone    = imap.Flag("$CongoAlone")
	flagDone     = imap.Flag("$CongoDone")
)

// hasFlag reports whether flags hold f; keywords are case-insensitive.
func hasFlag(flags []imap.Flag, f imap.Flag) bool {
	return slices.ContainsFunc(flags, func(g imap.Flag) bool { return strings.EqualFold(string(g), string(f)) })
}

// triesOf returns the count of failed tries that flags record.
func triesOf(flags []imap.Flag) int {
	n := 0
	for _, f := range flags {
		// Keywords are case-insensitive; some servers lowercase them.
		if len(f) > len(tryPrefix) && strings.EqualFold(string(f[:len(tryPrefix)]), tryPrefix) {
			v := string(f[len(tryPrefix):])
			if i, err := strconv.Atoi(v); err == nil && i > n {
				n = i
			}
		}
	}
	return n
}

// failed records that handling a message failed, tries times before.
// After MaxTries counted failures the message is set aside. It returns an
// error only when the connection fails.
func (b *Inbox) failed(ctx context.Context, cn *conn, st *inboxState, uid imap.UID, in *mailmsg.Incoming, tries int, herr error) error {
	count := !st.lastFailed || st.lastUID == uid
	st.lastUID, st.lastFailed = uid, true
	if !st.scanFailed {
		st.retry = min(max(2*st.retry, firstRetry), lastRetry)
	}
	st.scanFailed = true
	log := b.log.With("uid", uid, "message_id", in.MessageID, "err", herr)
	if unavailable(herr) {
		st.retry = firstRetry // at once when the handler is up again
		b.status.handlerDown.Store(true)
		log.Warn("mail not handled, the handler being down; it stays, not counted as a try", "tries", tries, "retry", st.retry)
		return nil
	}
	if !count {
		log.Error("mail not handled; it stays for the next pass (not counted as a try: the mail before failed too)", "tries", tries)
		return nil
	}
	tries++
	st.tries[uid] = tries
	set := imap.UIDSetNum(uid)
	if tries < b.maxTries {
		log.Error("mail not handled; it stays for the next pass", "tries", tries, "max_tries", b.maxTries)
		err := cn.do(ctx, "store "+tryPrefix, func() error {
			return cn.c.Store(set, &imap.StoreFlags{
				Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.Flag(fmt.Sprintf("%s%d", tryPrefix, tries))},
			}, nil).Close()
		})
		if err != nil && refused(err) {
			return nil // no keywords here: the count in memory must do
		}
		return err
	}
	return b.setAside(ctx, cn, st, uid, tries, log)
}

// setAside moves a message that failed tries times to the quarantine
// mailbox, or flags it $CongoQuarantined and \Seen where it cannot be
// moved. It returns an error only when the connection fails.
func (b *Inbox) setAside(ctx context.Context, cn *conn, st *inboxState, uid imap.UID, tries int, log *slog.Logger) error {
	// Moved back to the INBOX by the operator, it is handled once more.
	if err := b.unflag(ctx, cn, []imap.UID{uid}); err != nil {
		return err
	}
	set := imap.UIDSetNum(uid)
	fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(shutdownGrace, cancel) })()
	if cn.quarantine {
		left, err := b.move(fctx, cn, []imap.UID{uid}, b.quarantine)
		if len(left) == 0 {
			log.Error("mail set aside in the quarantine mailbox", "tries", tries, "mailbox", b.quarantine)
			delete(st.tries, uid)
			return nil
		}
		if err != nil && !refused(err) {
			return err
		}
	}
	// It stays: flagged so that it is not offered again.
	err := cn.do(fctx, "store "+string(flagQuarantined), func() error {
		return cn.c.Store(set, &imap.StoreFlags{
			Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{flagQuarantined, imap.FlagSeen},
		}, nil).Close()
	})
	if err != nil && !refused(err) {
		return err
	}
	st.unfiled[uid] = true
	log.Error("mail set aside: flagged, left in the mailbox", "tries", tries, "flag", string(flagQuarantined))
	return nil
}
