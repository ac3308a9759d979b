package outbox

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
)

// The defaults of the caps (M29): mails an hour to one recipient, caused
// by one player or address, and from the whole server.
const (
	DefaultMaxPerRecipient = 60
	DefaultMaxPerSender    = 200
	DefaultMaxPerHour      = 20000
)

// MaxUnprovenPerDay is the most answers to mail that proves nothing that
// go to one address in a sliding day (M52).
const MaxUnprovenPerDay = 3

// Mail is a mail to queue.
type Mail struct {
	Out  mailmsg.Outgoing
	Game int64 // the game it is about; 0 for none
	// Games are the games it lists, when it lists several (a digest), so
	// that a reply may play in them.
	Games []int64
	// Cause is who caused it, counted against the sender's cap: Player
	// for a player's mail, else an address; "" for the server itself
	// (the clock, the robot, the operator).
	Cause string
	// Notice is set for a mail that goes out past the caps: it is
	// counted, but not held back.
	Notice bool
	// Asked is set for mail to the one whose proven mail caused it (the
	// answer, their own board): it is not counted in their budget of
	// mail caused to others (Budget).
	Asked bool
	// Unproven is set for an answer to a mail that proves nothing (M52):
	// it spends no budget of the address that mail claims, neither its
	// recipient's cap nor a sender's, and has a cap of its own,
	// MaxUnprovenPerDay answers to an address in a sliding day. Past it,
	// or past the server's cap, it is dropped: Queue returns a
	// *CapError. Every other mail waits past a cap (M53).
	Unproven bool
	// Render, when set, writes the mail's Subject, Text and HTML into
	// its Out when the mail is composed: after Queue has returned, in
	// another goroutine (see Queue), so it must use nothing that changes
	// after Queue is called.
	Render func(out *mailmsg.Outgoing) error
}

// Player is the Cause of the mails a registered player's mail causes.
func Player(id int64) string { return fmt.Sprintf("player:%d", id) }

// CapError is an answer to a mail that proves nothing not queued because
// its cap (M52) or the server's (M29) was reached.
type CapError struct {
	Cap   string // "unproven" (a day) or "server" (an hour)
	Limit int    // the most mails in that time
}

func (e *CapError) Error() string {
	if e.Cap == "unproven" {
		return fmt.Sprintf("not queued: the cap of %d answers a day to mail that proves nothing is reached", e.Limit)
	}
	return fmt.Sprintf("not queued: the %s's cap of %d mails an hour is reached", e.Cap, e.Limit)
}

// Undeliverable reports whether addr is an address no mail is queued to:
// one in the .invalid domain (RFC 2606), like the robot's.
func Undeliverable(addr string) bool {
	i := strings.LastIndexByte(addr, '@')
	if i <= 0 || i == len(addr)-1 {
		return false
	}
	domain := strings.ToLower(addr[i+1:])
	return domain == "invalid" || strings.HasSuffix(domain, ".invalid")
}

// Recipient is the key a recipient's mails are counted under: the address
// lowercased, without the +tag of its local part, so that victim+1@ and
// victim+2@ count as one.
func Recipient(addr string) string {
	addr = strings.ToLower(addr)
	i := strings.LastIndexByte(addr, '@')
	if i < 0 {
		return addr
	}
	local, domain := addr[:i], addr[i:]
	if j := strings.IndexByte(local, '+'); j > 0 {
		local = local[:j]
	}
	return local + domain
}

// Queue queues m, in tx, from the server's address, recording its
// Message-ID with the game it is about, so that every retry sends the
// same bytes and replies to it are known. Every address of ours with a
// +tag (a player's personal address) but the recipient's own is first
// replaced in its text by "[address removed]" (M30). It returns the
// Message-ID; "" for mail to an address never mailed (the robot's), which
// is not queued.
//
// Every mail is counted against the caps of M29: its recipient, the
// player or address that caused it, and the whole server, over a sliding
// hour. A mail past one of them waits in the outbox (M53): it is due at
// the first minute when it is within all of them, and is counted there,
// so that mails go out in order and no hour holds more than a cap. Only
// an answer to a mail that proves nothing is dropped, past its own cap
// or the server's (Mail.Unproven; the error is a *CapError).
//
// The mail is rendered (m.Render) and composed in another goroutine,
// while tx goes on, and written into the outbox before tx commits, in the
// order Queue was called (db.Tx.BeforeCommit): a transaction that queues
// mail for many players spends the serialised part of its time on their
// games, not on their mails' bytes. Should rendering or composing fail,
// tx fails to commit.
func (o *Outbox) Queue(ctx context.Context, tx *db.Tx, m Mail, now time.Time) (string, error) {
	if Undeliverable(m.Out.To) {
		return "", nil
	}
	var keys []string
	at := now
	switch {
	case m.Unproven:
		keys = []string{unprovenKey(m.Out.To), "*"}
		if err := o.unprovenCap(ctx, tx, m.Out.To, now); err != nil {
			return "", err
		}
	default:
		keys = []string{"to:" + Recipient(m.Out.To), "*"}
		if m.Cause != "" && !m.Asked {
			// What a player's mail causes to others: their budget,
			// checked before their commands are carried out (Budget).
			keys = append(keys, "by:"+m.Cause, PairKey(m.Cause, m.Out.To))
		}
		if m.Notice {
			break
		}
		var cap string
		var err error
		if at, cap, err = slot(ctx, tx, keys[:2], []int{o.maxPerRecipient, o.maxPerHour}, []string{"recipient", "server"}, now); err != nil {
			return "", err
		}
		if at.After(now) {
			o.log.Warn("mail waits: a cap is reached", "cap", cap, "to", m.Out.To, "cause", m.Cause, "until", at)
			if o.onDeferred != nil {
				o.onDeferred(cap)
			}
		}
	}
	out := m.Out
	if err := mailmsg.Check(out); err != nil {
		return "", err
	}
	if out.MessageID == "" {
		id, err := mailmsg.NewMessageID(o.hostname)
		if err != nil {
			return "", err
		}
		out.MessageID = id
	}
	c := o.compose(out, m.Render)
	to, id := out.To, out.MessageID // not out, whose words may be long
	tx.BeforeCommit(func(ctx context.Context) error {
		raw, err := c.wait()
		if err != nil {
			return fmt.Errorf("mail to %s: %w", to, err)
		}
		_, err = tx.AddMail(ctx, db.Mail{Created: now, From: o.from, To: to, MessageID: id, Raw: raw, NextAttempt: at})
		return err
	})
	if err := tx.AddSent(ctx, out.MessageID, m.Game, now); err != nil {
		return "", err
	}
	if err := tx.AddSentGames(ctx, out.MessageID, m.Games); err != nil {
		return "", err
	}
	if err := tx.AddMailCount(ctx, at, keys...); err != nil {
		return "", err
	}
	if tx.Finishing() >= maxComposing {
		// A round of a tournament queues hundreds: their bytes go to
		// the outbox now, not all held until the commit.
		if err := tx.Finish(ctx); err != nil {
			return "", err
		}
	}
	return out.MessageID, nil
}

// maxComposing is the most mails a transaction holds composed, or being
// composed, before they are written into the outbox.
const maxComposing = 32

// A composition is a mail being rendered and composed apart from the
// transaction that queued it.
type composition struct {
	done chan struct{} // closed once raw and err are set
	raw  []byte
	err  error
}

// compose renders (render, when set) and composes out in a goroutine of
// its own, at most one a processor at a time.
func (o *Outbox) compose(out mailmsg.Outgoing, render func(*mailmsg.Outgoing) error) *composition {
	c := &composition{done: make(chan struct{})}
	go func() {
		defer close(c.done)
		o.composers <- struct{}{}
		defer func() { <-o.composers }()
		defer func() {
			if r := recover(); r != nil {
				c.err = fmt.Errorf("composing: panic: %v", r)
			}
		}()
		if render != nil {
			if err := render(&out); err != nil {
				c.err = err
				return
			}
		}
		out.Subject, out.Text, out.HTML = o.scrub(out.Subject, out), o.scrub(out.Text, out), o.scrub(out.HTML, out)
		c.raw, _, c.err = mailmsg.Compose(out, o.hostname)
	}()
	return c
}

// wait waits for the mail composed.
func (c *composition) wait() ([]byte, error) {
	<-c.done
	return c.raw, c.err
}

// PairKey is the key the mails caused by cause (Player) to the address to
// are counted under, for Budget.
func PairKey(cause, to string) string { return "pair:" + cause + ">" + Recipient(to) }

// Budget reports whether the player whose mails are Player(id) may
// cause more mail to the addresses to (M29, M53): it returns the first
// that is past its budget, and the budget; ok when none is. A player's
// mails may cause at most the sender's cap (-max-per-sender) of mails to
// others in a sliding hour, and at most half the recipient's cap
// (-max-per-recipient) to any one of them, so that no player can fill
// another's hour, whose mails wait past it (Queue), in order. The
// server refuses a command past its budget, before it is carried out:
// no mail it would cause is dropped.
func (o *Outbox) Budget(ctx context.Context, tx *db.Tx, id int64, now time.Time, to ...string) (over string, limit int, err error) {
	cause := Player(id)
	if o.maxPerSender > 0 {
		n, err := tx.CountMail(ctx, "by:"+cause, now)
		if err != nil {
			return "", 0, err
		}
		if n >= o.maxPerSender {
			return "*", o.maxPerSender, nil
		}
	}
	pair := o.maxPerRecipient / 2
	if o.maxPerRecipient <= 0 {
		return "", 0, nil
	}
	pair = max(pair, 1)
	for _, addr := range to {
		n, err := tx.CountMail(ctx, PairKey(cause, addr), now)
		if err != nil {
			return "", 0, err
		}
		if n >= pair {
			return addr, pair, nil
		}
	}
	return "", 0, nil
}

// unprovenKey is the key the answers to mail that proves nothing are
// counted under, a day long (M52).
func unprovenKey(to string) string { return db.DayKey + "unproven:" + Recipient(to) }

// unprovenCap refuses an answer to a mail that proves nothing past its
// cap, MaxUnprovenPerDay to one address in a sliding day, or past the
// server's cap.
func (o *Outbox) unprovenCap(ctx context.Context, tx *db.Tx, to string, now time.Time) error {
	n, err := tx.CountMailSince(ctx, unprovenKey(to), now.Add(-24*time.Hour))
	if err != nil {
		return err
	}
	var capErr *CapError
	switch {
	case n >= MaxUnprovenPerDay:
		capErr = &CapError{Cap: "unproven", Limit: MaxUnprovenPerDay}
	case o.maxPerHour > 0:
		if n, err = tx.CountMailSince(ctx, "*", now.Add(-time.Hour)); err != nil {
			return err
		}
		if n >= o.maxPerHour {
			capErr = &CapError{Cap: "server", Limit: o.maxPerHour}
		}
	}
	if capErr == nil {
		return nil
	}
	o.log.Warn("answer to a mail that proves nothing not queued: a cap is reached", "cap", capErr.Cap, "limit", capErr.Limit, "to", to)
	if o.onCapped != nil {
		o.onCapped(capErr.Cap)
	}
	return capErr
}

// slot returns the first minute, from now on, at which a mail counted
// under keys is within every one of their caps (limits, a sliding hour
// each; 0 or less for none): now when it is within them now, else the
// start of that minute, and the name of the first cap it waits for.
func slot(ctx context.Context, tx *db.Tx, keys []string, limits []int, caps []string, now time.Time) (time.Time, string, error) {
	first := db.MinuteOf(now)
	type window struct {
		counts map[int64]int
		sum    int // of the hour ending at the minute looked at
	}
	var ws []*window
	var held []int // the indexes of keys with a cap
	for i, k := range keys {
		if limits[i] <= 0 {
			continue
		}
		counts, err := tx.MailCounts(ctx, k, first-59)
		if err != nil {
			return time.Time{}, "", err
		}
		w := &window{counts: counts}
		for m := first - 59; m <= first; m++ {
			w.sum += counts[m]
		}
		ws, held = append(ws, w), append(held, i)
	}
	cap := ""
	for m := first; ; m++ {
		if m > first {
			for _, w := range ws {
				w.sum += w.counts[m] - w.counts[m-60]
			}
		}
		within := true
		for j, w := range ws {
			if w.sum >= limits[held[j]] {
				within = false
				if cap == "" {
					cap = caps[held[j]]
				}
				break
			}
		}
		if within {
			if m == first {
				return now, "", nil
			}
			return time.Unix(m*60, 0).UTC(), cap, nil
		}
	}
}

// IsCapped reports whether err says that a mail was held back by a cap.
func IsCapped(err error) bool {
	var c *CapError
	return errors.As(err, &c)
}

// Removed stands in for a personal address in a mail to another.
const Removed = "[address removed]"

// personalAddresses matches the server's addresses with a +tag: players'
// personal addresses, also as an HTML part writes them (html/template
// escapes "+" as "&#43;", and "@" may be "&#64;").
func personalAddresses(from string) *regexp.Regexp {
	local, domain, _ := strings.Cut(from, "@")
	return regexp.MustCompile(`(?i)` + regexp.QuoteMeta(local) + `(?:\+|&#43;|&#x2b;|&plus;)([a-z0-9]+)(?:@|&#64;|&#x40;|&commat;)` +
		regexp.QuoteMeta(domain) + `\b`)
}

// mayHoldPersonal reports whether s may hold a personal address: every
// match of personal has our local part right before a "+" or an "&".
// Most mails hold none, and this costs a small part of the regexp.
func (o *Outbox) mayHoldPersonal(s string) bool {
	n := len(o.local)
	for i := n; i < len(s); i++ {
		if c := s[i]; (c == '+' || c == '&') && strings.EqualFold(s[i-n:i], o.local) {
			return true
		}
	}
	return false
}

// onlyOwn reports whether every place where s may hold a personal
// address (mayHoldPersonal: our local part before a "+" or an "&") holds
// the recipient's own, written plainly: tail is "+", the recipient's
// secret, "@" and our domain. Any other, and any written as HTML
// escapes it, is the regexp's to judge.
func (o *Outbox) onlyOwn(s, tail string) bool {
	n := len(o.local)
	for i := n; i < len(s); i++ {
		if c := s[i]; (c == '+' || c == '&') && strings.EqualFold(s[i-n:i], o.local) {
			if len(s)-i < len(tail) || !strings.EqualFold(s[i:i+len(tail)], tail) {
				return false
			}
			i += len(tail) - 1
		}
	}
	return true
}

// domain is the domain of our address, lowercase.
func (o *Outbox) domain() string {
	return strings.ToLower(o.from[strings.LastIndexByte(o.from, '@')+1:])
}

// scrub replaces in s every personal address but that of the recipient of
// out (its Reply-To).
func (o *Outbox) scrub(s string, out mailmsg.Outgoing) string {
	if !o.mayHoldPersonal(s) {
		return s
	}
	_, own, _ := strings.Cut(strings.ToLower(out.ReplyTo), "+")
	own, _, _ = strings.Cut(own, "@")
	if own != "" && o.onlyOwn(s, "+"+own+"@"+o.domain()) {
		return s // a board mail's one-tap moves (M71): the regexp costs a millisecond
	}
	return o.personal.ReplaceAllStringFunc(s, func(a string) string {
		if tag := o.personal.FindStringSubmatch(a)[1]; own != "" && strings.EqualFold(tag, own) {
			return a
		}
		return Removed
	})
}

// KeepSent is how long a mail sent, or given up, stays in the outbox
// (its whole text, for the operator to look at) before Prune deletes it,
// at most pruneBatch at a time.
const KeepSent = 30 * 24 * time.Hour

const pruneBatch = 1000

// Prune deletes old mail, sent or given up KeepSent before now, at most
// pruneBatch mails a call, and the counts of mail older than two hours,
// in a transaction of its own.
func (o *Outbox) Prune(ctx context.Context, now time.Time) error {
	var pruned int64
	err := o.db.Tx(ctx, func(tx *db.Tx) error {
		var err error
		if pruned, err = tx.DeleteOldMail(ctx, now.Add(-KeepSent), pruneBatch); err != nil {
			return err
		}
		return tx.DeleteOldMailCounts(ctx, now.Add(-2*time.Hour), now.Add(-25*time.Hour))
	})
	if err != nil {
		return err
	}
	if pruned > 0 {
		o.log.Info("old mail pruned from the outbox", "mails", pruned, "before", now.Add(-KeepSent))
	}
	return nil
}
