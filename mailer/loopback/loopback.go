// Package loopback runs a small mail system in the process, an IMAP and an
// SMTP server on loopback addresses sharing in-memory mailboxes (kept on
// disk too, if asked), for the demo and for tests.
package loopback

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-smtp"
)

// maxMessageBytes is the largest mail the SMTP server accepts.
const maxMessageBytes = 64 << 20

// Config configures a System.
type Config struct {
	// Domain is the mail domain; every user's address is Name@Domain.
	// Default "example.org".
	Domain string

	// Users are the mailboxes. Each gets an INBOX.
	Users []User

	// NoMove makes the IMAP server a plain IMAP4rev1 server without the
	// MOVE extension (by default it speaks IMAP4rev2, which includes MOVE
	// and UIDPLUS).
	NoMove bool

	// NoUIDPlus, with NoMove, also leaves out UIDPLUS (UID EXPUNGE and
	// COPYUID).
	NoUIDPlus bool

	// IMAPAddr and SMTPAddr are the addresses to listen on; default
	// 127.0.0.1:0 (a free port).
	IMAPAddr string
	SMTPAddr string

	// Dir, when set, keeps the mailboxes on disk, so that they survive a
	// restart: each user's are written to Dir/NAME.json a moment after
	// each change and when the System stops, and read back by Start, with
	// their UIDVALIDITY, UIDs, flags and dates. Dir is made when missing
	// (0700); its files are 0600. Empty: the mailboxes live in memory
	// alone.
	Dir string

	// Logger receives the servers' error messages; nil discards them.
	Logger *slog.Logger
}

// User is a mailbox owner.
type User struct {
	Name     string // local part of the address, and IMAP login
	Password string
}

// System is a running mail system. Its SMTP server accepts mail for any
// user of Domain, including plus addresses (name+anything@Domain delivers
// to name's INBOX), adds Return-Path and Delivered-To on top like a real
// delivery agent, and files it in the user's INBOX, where the IMAP server
// shows it.
type System struct {
	// IMAPAddr and SMTPAddr are the host:port the servers listen on.
	IMAPAddr string
	SMTPAddr string

	domain string
	users  map[string]*user // by lowercased name
	imap   *imapserver.Server
	smtp   *smtp.Server
	lns    []net.Listener
	store  *store        // nil without Config.Dir
	done   chan struct{} // closed by shutdown
	once   sync.Once
	wg     sync.WaitGroup
}

type user struct {
	name, password string
	mem            *imapmemserver.User
}

// Start starts a System. It stops when ctx is done or Close is called.
func Start(ctx context.Context, cfg Config) (*System, error) {
	s := &System{
		domain: strings.ToLower(cfg.Domain),
		users:  make(map[string]*user),
		done:   make(chan struct{}),
	}
	if s.domain == "" {
		s.domain = "example.org"
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}

	if cfg.Dir != "" {
		st, err := openStore(cfg.Dir)
		if err != nil {
			return nil, fmt.Errorf("loopback: %w", err)
		}
		st.log = log
		s.store = st
	}

	mem := imapmemserver.New()
	for _, u := range cfg.Users {
		key := strings.ToLower(u.Name)
		if key == "" || strings.ContainsAny(key, "+@ \t\r\n") {
			return nil, fmt.Errorf("loopback: invalid user name %q", u.Name)
		}
		if s.users[key] != nil {
			return nil, fmt.Errorf("loopback: user %q twice", u.Name)
		}
		mu := imapmemserver.NewUser(u.Name, u.Password)
		if s.store != nil {
			if _, err := s.store.load(key, mu); err != nil {
				return nil, fmt.Errorf("loopback: mailboxes of %s: %w", u.Name, err)
			}
		}
		if _, err := mu.Status("INBOX", &imap.StatusOptions{}); err != nil {
			if err := mu.Create("INBOX", nil); err != nil {
				return nil, fmt.Errorf("loopback: create INBOX of %s: %w", u.Name, err)
			}
		}
		mem.AddUser(mu)
		s.users[key] = &user{name: u.Name, password: u.Password, mem: mu}
	}

	caps := imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}}
	if cfg.NoMove {
		caps = imap.CapSet{imap.CapIMAP4rev1: {}}
		if !cfg.NoUIDPlus {
			caps[imap.CapUIDPlus] = struct{}{}
		}
	}
	newSession := func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
		return &idleSession{users: s.users, store: s.store}, nil, nil
	}
	s.imap = imapserver.New(&imapserver.Options{
		NewSession:   newSession,
		Caps:         caps,
		InsecureAuth: true,
		Logger:       printfLogger{log.With("server", "imap"), s.closed},
	})
	if s.store != nil {
		s.store.pipes = newPipeListener()
		s.store.reader = imapserver.New(&imapserver.Options{
			NewSession:   newSession,
			Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
			InsecureAuth: true,
			Logger:       printfLogger{log.With("server", "imap-store"), s.closed},
		})
	}
	s.smtp = smtp.NewServer(&backend{s})
	s.smtp.Domain = "localhost"
	s.smtp.AllowInsecureAuth = true
	s.smtp.MaxMessageBytes = maxMessageBytes
	s.smtp.MaxRecipients = 100
	s.smtp.ErrorLog = printfLogger{log.With("server", "smtp"), s.closed}

	imapLn, err := net.Listen("tcp", cmp.Or(cfg.IMAPAddr, "127.0.0.1:0"))
	if err != nil {
		return nil, fmt.Errorf("loopback: %w", err)
	}
	smtpLn, err := net.Listen("tcp", cmp.Or(cfg.SMTPAddr, "127.0.0.1:0"))
	if err != nil {
		imapLn.Close()
		return nil, fmt.Errorf("loopback: %w", err)
	}
	s.lns = []net.Listener{imapLn, smtpLn}
	s.IMAPAddr = imapLn.Addr().String()
	s.SMTPAddr = smtpLn.Addr().String()

	if s.store != nil {
		s.wg.Add(2)
		go func() {
			defer s.wg.Done()
			if err := s.store.reader.Serve(s.store.pipes); err != nil {
				log.Error("loopback store's imap server stopped", "err", err)
			}
		}()
		go func() {
			defer s.wg.Done()
			s.store.run(s, s.done, s.shutdown)
		}()
	}
	s.wg.Add(3)
	go func() {
		defer s.wg.Done()
		if err := s.imap.Serve(imapLn); err != nil && !s.closed() {
			log.Error("loopback imap server stopped", "err", err)
		}
	}()
	go func() {
		defer s.wg.Done()
		if err := s.smtp.Serve(smtpLn); err != nil && !s.closed() {
			log.Error("loopback smtp server stopped", "err", err)
		}
	}()
	go func() {
		defer s.wg.Done()
		select {
		case <-ctx.Done():
			s.shutdown()
		case <-s.done:
		}
	}()
	return s, nil
}

// Close stops the servers, drops their connections and waits for them;
// with Config.Dir, it saves the mailboxes first.
func (s *System) Close() {
	s.shutdown()
	s.wg.Wait()
}

func (s *System) shutdown() {
	s.once.Do(func() {
		close(s.done)
		s.imap.Close()
		s.smtp.Close()
		// The servers close only the listeners they have started serving.
		for _, ln := range s.lns {
			ln.Close()
		}
	})
}

func (s *System) closed() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Address returns the mail address of a user: name@Domain.
func (s *System) Address(name string) string {
	return name + "@" + s.domain
}

// IMAPURL returns the URL that logs in as name and reads its INBOX,
// imap://name:password@IMAPAddr/INBOX, or "" for an unknown user.
func (s *System) IMAPURL(name string) string {
	u := s.users[strings.ToLower(name)]
	if u == nil {
		return ""
	}
	return (&url.URL{
		Scheme: "imap",
		User:   url.UserPassword(u.name, u.password),
		Host:   s.IMAPAddr,
		Path:   "/INBOX",
	}).String()
}

// SMTPURL returns the URL of the SMTP server, smtp://SMTPAddr. It needs no
// login.
func (s *System) SMTPURL() string {
	return "smtp://" + s.SMTPAddr
}

// Deliver sends raw, a message with CRLF line ends, through the SMTP server
// from the envelope sender from (empty for a bounce) to the addresses to.
func (s *System) Deliver(ctx context.Context, from string, to []string, raw []byte) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.SMTPAddr)
	if err != nil {
		return fmt.Errorf("loopback deliver: %w", err)
	}
	defer context.AfterFunc(ctx, func() { conn.Close() })()
	c := smtp.NewClient(conn)
	defer c.Close()
	if err := c.SendMail(from, to, bytes.NewReader(raw)); err != nil {
		return fmt.Errorf("loopback deliver: %w", err)
	}
	if err := c.Quit(); err != nil {
		return fmt.Errorf("loopback deliver: %w", err)
	}
	return nil
}

// Message is a stored message.
type Message struct {
	UID   imap.UID
	Flags []imap.Flag
	Raw   []byte
}

// Fetch returns the messages of a user's mailbox, oldest first, read over
// IMAP without changing their flags.
func (s *System) Fetch(ctx context.Context, name, mailbox string) ([]Message, error) {
	u := s.users[strings.ToLower(name)]
	if u == nil {
		return nil, fmt.Errorf("loopback: no user %q", name)
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.IMAPAddr)
	if err != nil {
		return nil, fmt.Errorf("loopback fetch: %w", err)
	}
	c := imapclient.New(conn, nil)
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })()

	if err := c.Login(u.name, u.password).Wait(); err != nil {
		return nil, fmt.Errorf("loopback fetch: login: %w", err)
	}
	msgs, err := ReadMailbox(c, mailbox)
	if err != nil {
		return nil, fmt.Errorf("loopback fetch: %w", err)
	}
	return msgs, nil
}

// ReadMailbox returns the messages of mailbox, oldest first, read through
// c (logged in) without changing their flags.
func ReadMailbox(c *imapclient.Client, mailbox string) ([]Message, error) {
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, fmt.Errorf("select %s: %w", mailbox, err)
	}
	if sel.NumMessages == 0 {
		return nil, nil
	}
	bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{
		UID:         true,
		Flags:       true,
		BodySection: []*imap.FetchItemBodySection{{Peek: true}},
	}).Collect()
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", mailbox, err)
	}
	msgs := make([]Message, 0, len(bufs))
	for _, b := range bufs {
		m := Message{UID: b.UID, Flags: b.Flags}
		for _, sec := range b.BodySection {
			m.Raw = sec.Bytes
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// Messages returns the raw messages of a user's mailbox, oldest first.
func (s *System) Messages(name, mailbox string) ([][]byte, error) {
	msgs, err := s.Fetch(context.Background(), name, mailbox)
	if err != nil {
		return nil, err
	}
	raws := make([][]byte, len(msgs))
	for i, m := range msgs {
		raws[i] = m.Raw
	}
	return raws, nil
}

// lookup returns the user an address delivers to.
func (s *System) lookup(addr string) (*user, error) {
	i := strings.LastIndexByte(addr, '@')
	if i < 0 || !strings.EqualFold(addr[i+1:], s.domain) {
		return nil, &smtp.SMTPError{
			Code:         550,
			EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message:      "Relaying denied: not a local domain",
		}
	}
	name, _, _ := strings.Cut(addr[:i], "+")
	u := s.users[strings.ToLower(name)]
	if u == nil {
		return nil, &smtp.SMTPError{
			Code:         550,
			EnhancedCode: smtp.EnhancedCode{5, 1, 1},
			Message:      "No such user here",
		}
	}
	return u, nil
}
