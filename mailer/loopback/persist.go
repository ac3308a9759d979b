package loopback

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// saveDelay is how long a save waits after a change, so that a burst of
// changes (a batch filed by the daemon) is written once.
const saveDelay = 200 * time.Millisecond

// saveTimeout bounds one save.
const saveTimeout = 30 * time.Second

// A mailboxFile is what Dir/NAME.json holds: a user's mailboxes, enough
// to start again where they were, with the same UIDVALIDITY and UIDs, so
// that mail clients (and congod) see the same mailboxes after a restart.
type mailboxFile struct {
	// UIDValidity is the highest UIDVALIDITY the user's mailboxes have
	// had: a mailbox created after a restart gets a higher one.
	UIDValidity uint32          `json:"uidvalidity"`
	Mailboxes   []mailboxRecord `json:"mailboxes"`
}

type mailboxRecord struct {
	Name        string          `json:"name"`
	UIDValidity uint32          `json:"uidvalidity"`
	UIDNext     imap.UID        `json:"uidnext"`
	Subscribed  bool            `json:"subscribed,omitempty"`
	Messages    []messageRecord `json:"messages"`
}

type messageRecord struct {
	UID   imap.UID    `json:"uid"`
	Flags []imap.Flag `json:"flags"`
	Date  time.Time   `json:"date"`
	Raw   []byte      `json:"raw"`
}

// store keeps the mailboxes of a System in files under dir: a user's in
// dir/NAME.json, written again a moment after each change and when the
// System stops.
type store struct {
	dir string
	log *slog.Logger

	// changing is held for reading by every change to a mailbox, and for
	// writing by the last save, so that the last save sees no change
	// half done. Other saves do not wait: a change that overlaps one
	// makes another.
	changing sync.RWMutex

	mu    sync.Mutex
	dirty map[string]bool // users changed since their last save
	high  map[string]uint32
	wake  chan struct{} // signalled on a change

	// reader is an IMAP server of the System's mailboxes of its own,
	// reached through pipes, through which saves read them, whatever
	// becomes of the System's listener.
	reader *imapserver.Server
	pipes  *pipeListener
}

// fileName is the file of the user key in dir.
func (st *store) fileName(key string) string {
	return filepath.Join(st.dir, url.PathEscape(key)+".json")
}

// openStore makes dir (0700) when missing and returns its store.
func openStore(dir string) (*store, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		// The umask may have taken away the owner's bits too.
		if err := os.Chmod(dir, 0o700); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	}
	return &store{
		dir:   dir,
		dirty: map[string]bool{},
		high:  map[string]uint32{},
		wake:  make(chan struct{}, 1),
	}, nil
}

// load reads the mailboxes of the user key into mem, a new user without
// mailboxes, and reports whether there was a file.
func (st *store) load(key string, mem *imapmemserver.User) (bool, error) {
	b, err := os.ReadFile(st.fileName(key))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var f mailboxFile
	if err := json.Unmarshal(b, &f); err != nil {
		return false, fmt.Errorf("%s: %w", st.fileName(key), err)
	}
	if err := restore(mem, &f); err != nil {
		return false, fmt.Errorf("%s: %w", st.fileName(key), err)
	}
	st.high[key] = f.UIDValidity
	return true, nil
}

// restore fills mem, a new user without mailboxes, with the mailboxes of
// f, under their UIDVALIDITY and with their UIDs. imapmemserver gives a
// new mailbox the user's next UIDVALIDITY (1, 2, ...) and a new message
// the mailbox's next UID, and offers no way to set either: so mailboxes
// are created in the order of their UIDVALIDITY, with a mailbox made and
// deleted for each number skipped, and a message is appended for each UID
// skipped and expunged once the mailbox is full.
func restore(mem *imapmemserver.User, f *mailboxFile) error {
	mbs := slices.Clone(f.Mailboxes)
	slices.SortFunc(mbs, func(a, b mailboxRecord) int { return cmp.Compare(a.UIDValidity, b.UIDValidity) })
	var validity uint32 // the last UIDVALIDITY mem gave
	skipTo := func(v uint32) error {
		const scratch = "\x00restoring"
		for ; validity+1 < v; validity++ {
			if err := mem.Create(scratch, nil); err != nil {
				return err
			}
			if err := mem.Delete(scratch); err != nil {
				return err
			}
		}
		return nil
	}
	for _, mb := range mbs {
		if mb.UIDValidity <= validity {
			return fmt.Errorf("mailbox %q: UIDVALIDITY %d out of order", mb.Name, mb.UIDValidity)
		}
		if err := skipTo(mb.UIDValidity); err != nil {
			return err
		}
		if err := mem.Create(mb.Name, nil); err != nil {
			return fmt.Errorf("create mailbox %q: %w", mb.Name, err)
		}
		validity++
		if err := restoreMessages(mem, mb); err != nil {
			return fmt.Errorf("mailbox %q: %w", mb.Name, err)
		}
		if mb.Subscribed {
			if err := mem.Subscribe(mb.Name); err != nil {
				return err
			}
		}
		st, err := mem.Status(mb.Name, &imap.StatusOptions{UIDValidity: true, UIDNext: true})
		if err != nil {
			return err
		}
		if st.UIDValidity != mb.UIDValidity || st.UIDNext != mb.UIDNext {
			return fmt.Errorf("restored with UIDVALIDITY %d, UIDNEXT %d, want %d, %d",
				st.UIDValidity, st.UIDNext, mb.UIDValidity, mb.UIDNext)
		}
	}
	return skipTo(f.UIDValidity + 1)
}

// restoreMessages appends the messages of mb, each under its UID, to the
// new mailbox of mem of its name.
func restoreMessages(mem *imapmemserver.User, mb mailboxRecord) error {
	msgs := slices.Clone(mb.Messages)
	slices.SortFunc(msgs, func(a, b messageRecord) int { return cmp.Compare(a.UID, b.UID) })
	next := imap.UID(1)
	var fillers imap.UIDSet
	appendMsg := func(raw []byte, opts *imap.AppendOptions) (imap.UID, error) {
		d, err := mem.Append(mb.Name, bytes.NewReader(raw), opts)
		if err != nil {
			return 0, err
		}
		next = d.UID + 1
		return d.UID, nil
	}
	fill := func(to imap.UID) error {
		for next < to {
			uid, err := appendMsg(nil, &imap.AppendOptions{})
			if err != nil {
				return err
			}
			fillers.AddNum(uid)
		}
		return nil
	}
	for _, m := range msgs {
		if m.UID < next {
			return fmt.Errorf("UID %d twice or out of order", m.UID)
		}
		if err := fill(m.UID); err != nil {
			return err
		}
		flags := slices.DeleteFunc(slices.Clone(m.Flags), func(f imap.Flag) bool { return strings.EqualFold(string(f), `\Recent`) })
		uid, err := appendMsg(m.Raw, &imap.AppendOptions{Flags: flags, Time: m.Date})
		if err != nil {
			return err
		}
		if uid != m.UID {
			return fmt.Errorf("message restored as UID %d, want %d", uid, m.UID)
		}
	}
	if mb.UIDNext < next {
		return fmt.Errorf("UIDNEXT %d below UID %d", mb.UIDNext, next-1)
	}
	if err := fill(mb.UIDNext); err != nil {
		return err
	}
	if len(fillers) == 0 {
		return nil
	}
	sess := imapmemserver.NewUserSession(mem)
	defer sess.Close()
	if _, err := sess.Select(mb.Name, nil); err != nil {
		return err
	}
	deleted := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}
	if err := sess.Store(nil, fillers, deleted, nil); err != nil {
		return err
	}
	return sess.Expunge(nil, &fillers)
}

// change is to be called before a change to the mailboxes of the user
// key; the function it returns, once the change is made.
func (st *store) change(key string) func() {
	if st == nil {
		return func() {}
	}
	st.changing.RLock()
	return func() {
		st.changing.RUnlock()
		st.mu.Lock()
		st.dirty[key] = true
		st.mu.Unlock()
		select {
		case st.wake <- struct{}{}:
		default:
		}
	}
}

// run saves the changed users' mailboxes a moment after each change,
// until done is closed; then, once stop has stopped the System's servers,
// it saves what is left, with no change under way.
func (st *store) run(s *System, done <-chan struct{}, stop func()) {
	timer := time.NewTimer(0)
	<-timer.C
	for {
		select {
		case <-done:
			timer.Stop()
			stop()
			st.changing.Lock()
			st.saveDirty(s)
			st.changing.Unlock()
			// Not reader.Close, which races with a Serve just begun (it
			// waits on a WaitGroup Serve adds to): with its listener
			// closed, Serve returns; the saves closed their connections.
			st.pipes.Close()
			return
		case <-st.wake:
			timer.Reset(saveDelay)
		case <-timer.C:
			st.saveDirty(s)
		}
	}
}

// saveDirty saves the users changed since their last save. A user whose
// save fails stays changed, to be saved with the next change or at the
// stop.
func (st *store) saveDirty(s *System) {
	st.mu.Lock()
	var keys []string
	for k := range st.dirty {
		keys = append(keys, k)
	}
	clear(st.dirty) // a change from now on is saved again
	st.mu.Unlock()
	slices.Sort(keys)
	for _, k := range keys {
		if err := st.save(s, k); err != nil {
			st.log.Error("loopback: mailboxes not saved", "user", k, "err", err)
			st.mu.Lock()
			st.dirty[k] = true
			st.mu.Unlock()
		}
	}
}

// save writes the mailboxes of the user key to its file, whole or not at
// all: a new file, synced, then renamed over the old one.
func (st *store) save(s *System, key string) error {
	u := s.users[key]
	ctx, cancel := context.WithTimeout(context.Background(), saveTimeout)
	defer cancel()
	f, err := st.read(ctx, u)
	if err != nil {
		return err
	}
	st.mu.Lock()
	for _, mb := range f.Mailboxes {
		st.high[key] = max(st.high[key], mb.UIDValidity)
	}
	f.UIDValidity = st.high[key]
	st.mu.Unlock()
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return writeFileAtomic(st.fileName(key), b)
}

// read reads the mailboxes of u through the reader server.
func (st *store) read(ctx context.Context, u *user) (*mailboxFile, error) {
	conn, err := st.pipes.dial()
	if err != nil {
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	c := imapclient.New(conn, nil)
	defer c.Close()
	if err := c.Login(u.name, u.password).Wait(); err != nil {
		return nil, fmt.Errorf("login: %w", err)
	}
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		return nil, fmt.Errorf("list: %w", err)
	}
	f := &mailboxFile{Mailboxes: []mailboxRecord{}}
	for _, l := range list {
		sel, err := c.Select(l.Mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
		if err != nil {
			return nil, fmt.Errorf("select %s: %w", l.Mailbox, err)
		}
		mb := mailboxRecord{
			Name:        l.Mailbox,
			UIDValidity: sel.UIDValidity,
			UIDNext:     sel.UIDNext,
			Subscribed:  slices.Contains(l.Attrs, imap.MailboxAttrSubscribed),
			Messages:    []messageRecord{},
		}
		if sel.NumMessages > 0 {
			bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{
				UID:          true,
				Flags:        true,
				InternalDate: true,
				BodySection:  []*imap.FetchItemBodySection{{Peek: true}},
			}).Collect()
			if err != nil {
				return nil, fmt.Errorf("fetch %s: %w", l.Mailbox, err)
			}
			for _, b := range bufs {
				m := messageRecord{UID: b.UID, Flags: b.Flags, Date: b.InternalDate}
				for _, sec := range b.BodySection {
					m.Raw = sec.Bytes
				}
				mb.Messages = append(mb.Messages, m)
			}
		}
		f.Mailboxes = append(f.Mailboxes, mb)
	}
	if err := c.Logout().Wait(); err != nil {
		return nil, fmt.Errorf("logout: %w", err)
	}
	return f, nil
}

// writeFileAtomic writes b to path through a file beside it (mode 0600,
// whatever the umask), synced, then renamed.
func writeFileAtomic(path string, b []byte) error {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Chmod(0o600)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// pipeListener is a net.Listener whose connections are in-process pipes,
// made by dial.
type pipeListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

func (l *pipeListener) dial() (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.closed:
		client.Close()
		server.Close()
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "loopback-store" }
