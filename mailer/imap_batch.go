package mailer

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/congobymail/congo/mailmsg"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// scan handles the unseen messages of the mailbox, oldest first, in
// batches.
//
// Where handled mail leaves the mailbox (a processed mailbox, and MOVE or
// UIDPLUS), every message still in it is offered, \Seen or not: one that
// is \Seen was handled and then not moved (the daemon died in between),
// or was read by a person. The handler knows the first kind by its
// Message-ID, and it is filed at last; the second kind is handled.
//
// Messages handled in this session but not yet filed (pending) are filed
// first, without being handled again. The others are split into batches
// (plan), each fetched with one command (fetch), handed to the handler,
// and then sorted (settle): the handled ones filed together, the failed
// ones counted one by one.
func (b *Inbox) scan(ctx context.Context, cn *conn, st *inboxState, handle BatchHandler) error {
	notFlags := []imap.Flag{imap.FlagSeen, imap.FlagDeleted, flagQuarantined}
	if cn.processed && (cn.caps.Has(imap.CapMove) || cn.caps.Has(imap.CapUIDPlus)) {
		notFlags = []imap.Flag{imap.FlagDeleted, flagQuarantined}
	}
	var uids []imap.UID
	if err := cn.do(ctx, "search", func() error {
		data, err := cn.c.UIDSearch(&imap.SearchCriteria{
			NotFlag: notFlags,
		}, nil).Wait()
		if err == nil {
			uids = data.AllUIDs()
		}
		return err
	}); err != nil {
		return err
	}
	b.status.lastPoll.Store(time.Now().UnixNano())
	slices.Sort(uids)
	var todo, pending []imap.UID
	for _, uid := range slices.Compact(uids) {
		switch {
		case uid == 0 || st.unfiled[uid]:
		case st.pending[uid]:
			pending = append(pending, uid)
		default:
			todo = append(todo, uid)
		}
	}
	if len(pending) > 0 {
		if err := b.file(ctx, cn, st, pending); err != nil {
			return err
		}
	}
	for window := range slices.Chunk(todo, sizeWindow) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		batches, err := b.plan(ctx, cn, window)
		if err != nil {
			return err
		}
		for _, batch := range batches {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			mails, err := b.fetch(ctx, cn, st.uidValidity, batch)
			if err != nil {
				return err
			}
			if len(mails) == 0 {
				continue // expunged meanwhile
			}
			// In UID order: runs of mails as one batch, and alone each
			// mail that was being handled when the process died, or has
			// one try left.
			lone := func(f *fetched) bool { return f.suspect() || f.tries >= b.maxTries-1 }
			for len(mails) > 0 {
				n := 1
				for !lone(&mails[0]) && n < len(mails) && !lone(&mails[n]) {
					n++
				}
				if err := b.handleRun(ctx, cn, st, handle, mails[:n]); err != nil {
					return err
				}
				mails = mails[n:]
			}
		}
	}
	return nil
}

// handleRun hands mails to the handler as one batch, flagged
// $CongoHandling meanwhile (and $CongoAlone when it is one mail), and
// settles the outcome. A mail that was in flight when the process died
// comes alone; if it was alone then, that death counts as a failed try
// (it is set aside after MaxTries), so that a mail that kills the process
// stops doing so, and a batch it was in is not charged for it. A mail
// that could not even be parsed fails without being handed over.
func (b *Inbox) handleRun(ctx context.Context, cn *conn, st *inboxState, handle BatchHandler, mails []fetched) error {
	uids := make([]imap.UID, len(mails))
	var ms []*mailmsg.Incoming
	for i, m := range mails {
		uids[i] = m.uid
		if m.parseErr == nil {
			ms = append(ms, m.in)
		}
	}
	flags := []imap.Flag{flagHandling}
	if len(mails) == 1 {
		flags = append(flags, flagAlone)
	}
	if m := &mails[0]; m.suspect() {
		log := b.log.With("uid", m.uid, "message_id", m.in.MessageID)
		if m.alone && !st.charged[m.uid] {
			m.tries = max(m.tries, st.tries[m.uid]) + 1
			st.tries[m.uid] = m.tries
			st.charged[m.uid] = true // once for this death, whatever happens to the session
			if m.tries >= b.maxTries {
				// The try is recorded first: should the mail not be
				// moved, it is not taken for one with tries left.
				if err := b.store(ctx, cn, uids, tryFlag(m.tries)); err != nil {
					return err
				}
				delete(st.charged, m.uid)
				return b.setAside(ctx, cn, st, m.uid, m.tries, log)
			}
			log.Error("the process died while handling this mail; it is tried again", "tries", m.tries, "max_tries", b.maxTries)
			flags = append(flags, tryFlag(m.tries))
		} else if m.inBatch {
			log.Warn("the process died while handling a batch with this mail; it is tried alone")
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err := b.store(ctx, cn, uids, flags...); err != nil {
		return err
	}
	errs := make([]error, len(mails))
	if len(ms) > 0 {
		got := b.callBatch(ctx, handle, ms)
		for i, j := 0, 0; i < len(mails); i++ {
			if mails[i].parseErr != nil {
				errs[i] = mails[i].parseErr
				continue
			}
			errs[i] = got[j]
			j++
		}
	} else {
		for i := range mails {
			errs[i] = mails[i].parseErr
		}
	}
	return b.settle(ctx, cn, st, mails, errs)
}

// store adds keywords to messages. A server that refuses them keeps no
// keywords: that is no error, as the tries are counted in memory too.
func (b *Inbox) store(ctx context.Context, cn *conn, uids []imap.UID, flags ...imap.Flag) error {
	err := cn.do(ctx, "store "+string(flags[len(flags)-1]), func() error {
		return cn.c.Store(imap.UIDSetNum(uids...), &imap.StoreFlags{
			Op: imap.StoreFlagsAdd, Silent: true, Flags: flags,
		}, nil).Close()
	})
	if err != nil && refused(err) {
		return nil
	}
	return err
}

// suspect reports whether the process died while it handled the mail.
func (f *fetched) suspect() bool { return f.inBatch || f.alone }

// plan splits uids, ascending, into batches of at most Batch messages
// and maxBatchBytes fetched bytes (at least one message each). Messages
// gone meanwhile are left out.
func (b *Inbox) plan(ctx context.Context, cn *conn, uids []imap.UID) ([][]imap.UID, error) {
	if int64(b.batch)*b.maxSize <= maxBatchBytes {
		return slices.Collect(slices.Chunk(uids, b.batch)), nil // sizes cannot matter
	}
	sizes := make(map[imap.UID]int64, len(uids))
	if err := cn.do(ctx, "fetch sizes", func() error {
		msgs, err := cn.c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
		for _, m := range msgs {
			if m.UID != 0 {
				sizes[m.UID] = m.RFC822Size
			}
		}
		return err
	}); err != nil {
		return nil, err
	}
	var (
		batches [][]imap.UID
		cur     []imap.UID
		bytes   int64
	)
	for _, uid := range uids {
		size, ok := sizes[uid]
		if !ok {
			continue
		}
		size = min(max(size, 0), b.maxSize)
		if len(cur) > 0 && (len(cur) == b.batch || bytes+size > maxBatchBytes) {
			batches = append(batches, cur)
			cur, bytes = nil, 0
		}
		cur = append(cur, uid)
		bytes += size
	}
	if len(cur) > 0 {
		batches = append(batches, cur)
	}
	return batches, nil
}

// fetched is a message read by fetch.
type fetched struct {
	uid      imap.UID
	in       *mailmsg.Incoming
	tries    int   // failed tries recorded in its keywords
	inBatch  bool  // the process died while a batch with it was handled
	alone    bool  // the process died while it was handled alone
	parseErr error // reading it panicked: it is not handed over
}

// fetch reads the messages uids (ascending; at most MaxSize bytes of
// each) with one command, without setting \Seen, and the counts of failed
// tries their keywords record. It returns them in UID order, leaving out
// those that are gone.
func (b *Inbox) fetch(ctx context.Context, cn *conn, uidValidity uint32, uids []imap.UID) ([]fetched, error) {
	type message struct {
		raw            []byte
		size           int64
		tries          int
		inBatch, alone bool
	}
	got := make(map[imap.UID]*message, len(uids))
	err := cn.do(ctx, "fetch", func() error {
		cmd := cn.c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{
			UID:        true,
			Flags:      true,
			RFC822Size: true,
			BodySection: []*imap.FetchItemBodySection{{
				Peek:    true,
				Partial: &imap.SectionPartial{Offset: 0, Size: b.maxSize},
			}},
		})
		for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
			var (
				m    message
				uid  imap.UID
				body bool
			)
			for item := msg.Next(); item != nil; item = msg.Next() {
				switch item := item.(type) {
				case imapclient.FetchItemDataUID:
					uid = item.UID
				case imapclient.FetchItemDataBodySection:
					body = true
					if item.Literal != nil {
						raw, err := readLiteral(item.Literal, b.maxSize)
						if err != nil {
							// go-imap's decoder goes on reading once the
							// text's read fails, and moving to the next item
							// would read the rest of the text at the same
							// time: the command is given up, and the
							// connection with it (TestInboxFetchCut).
							return err
						}
						m.raw = raw
					}
				case imapclient.FetchItemDataRFC822Size:
					m.size = item.Size
				case imapclient.FetchItemDataFlags:
					// $CongoDone is set only once the handler committed
					// (with \Seen, which a person may set too): such a mail
					// was handled, whatever else it is flagged.
					done := hasFlag(item.Flags, flagDone)
					m.tries = triesOf(item.Flags)
					m.inBatch = hasFlag(item.Flags, flagHandling) && !done
					m.alone = hasFlag(item.Flags, flagAlone) && !done
				}
			}
			if _, asked := slices.BinarySearch(uids, uid); asked && body {
				got[uid] = &m
			}
		}
		return cmd.Close()
	})
	if err != nil {
		return nil, err
	}
	mails := make([]fetched, 0, len(got))
	for _, uid := range uids {
		m := got[uid]
		if m == nil {
			continue
		}
		in, panicked, perr := parseSafely(m.raw)
		if perr != nil {
			b.log.Warn("mail partly unreadable", "uid", uid, "err", perr)
		}
		in.UIDValidity = uidValidity
		in.UID = uint32(uid)
		if m.size > int64(len(m.raw)) {
			in.Size = int(m.size)
			in.Truncated = true
		}
		f := fetched{uid: uid, in: in, tries: m.tries, inBatch: m.inBatch, alone: m.alone}
		if panicked != nil {
			f.parseErr = fmt.Errorf("reading the mail: panic: %v", panicked)
			b.log.Error("mail unreadable", "uid", uid, "err", f.parseErr)
		}
		mails = append(mails, f)
	}
	return mails, nil
}

// parseSafely is mailmsg.Parse, with a panic (a bug, hostile mail) turned
// into a value: the mail then fails like one its handler failed.
func parseSafely(raw []byte) (in *mailmsg.Incoming, panicked any, err error) {
	defer func() {
		if r := recover(); r != nil {
			in, panicked, err = &mailmsg.Incoming{}, r, nil
		}
	}()
	in, err = mailmsg.Parse(raw)
	return in, nil, err
}

// callBatch calls handle with ms and returns its results. When handle
// panics on several mails, it hands each of them to handle alone, so that
// the panic is charged to the mail that causes it: a panic is then that
// mail's error.
func (b *Inbox) callBatch(ctx context.Context, handle BatchHandler, ms []*mailmsg.Incoming) []error {
	errs, p := tryBatch(ctx, handle, ms)
	if p == nil {
		return errs
	}
	if len(ms) == 1 {
		return []error{fmt.Errorf("panic: %v", p)}
	}
	b.log.Error("mail handler panicked on a batch; handling its mails one at a time", "mails", len(ms), "panic", p)
	errs = make([]error, len(ms))
	for i := range ms {
		if ctx.Err() != nil {
			errs[i] = ctx.Err() // not handled: it stays, and is not counted
			continue
		}
		one, p := tryBatch(ctx, handle, ms[i:i+1])
		if p != nil {
			errs[i] = fmt.Errorf("panic: %v", p)
		} else {
			errs[i] = one[0]
		}
	}
	return errs
}

// tryBatch calls handle, returning what it panicked with, if it did. A
// result of the wrong length is an error for every mail.
func tryBatch(ctx context.Context, handle BatchHandler, ms []*mailmsg.Incoming) (errs []error, panicked any) {
	defer func() {
		if r := recover(); r != nil {
			errs, panicked = nil, r
		}
	}()
	errs = handle(ctx, ms)
	if len(errs) != len(ms) {
		err := fmt.Errorf("mail handler returned %d results for %d mails", len(errs), len(ms))
		errs = slices.Repeat([]error{err}, len(ms))
	}
	return errs, nil
}

// callHandle calls handle, turning a panic into an error.
func callHandle(ctx context.Context, handle func(context.Context, *mailmsg.Incoming) error, in *mailmsg.Incoming) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return handle(ctx, in)
}

// readLiteral reads a mail's text, at most limit bytes of it. A text that
// ends before its announced size, as when the connection is cut, is an
// error: go-imap reports that as the literal's end.
func readLiteral(lit imap.LiteralReader, limit int64) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(lit, limit))
	if err == nil && int64(len(raw)) < min(lit.Size(), limit) {
		err = fmt.Errorf("the mail's text ended after %d of %d bytes: %w", len(raw), lit.Size(), io.ErrUnexpectedEOF)
	}
	return raw, err
}
