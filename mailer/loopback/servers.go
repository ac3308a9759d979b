package loopback

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// backend is the SMTP side: it files mail in the recipients' INBOXes.
type backend struct{ s *System }

func (b *backend) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &session{s: b.s}, nil
}

type recipient struct {
	addr string
	u    *user
}

type session struct {
	s     *System
	from  string
	rcpts []recipient
}

var _ smtp.AuthSession = (*session)(nil)

func (se *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (se *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		name, _, _ := strings.Cut(username, "@")
		u := se.s.users[strings.ToLower(name)]
		if u == nil || u.password != password || identity != "" && identity != username {
			return smtp.ErrAuthFailed
		}
		return nil
	}), nil
}

func (se *session) Mail(from string, _ *smtp.MailOptions) error {
	se.from = from
	return nil
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	u, err := se.s.lookup(to)
	if err != nil {
		return err
	}
	se.rcpts = append(se.rcpts, recipient{addr: to, u: u})
	return nil
}

func (se *session) Data(r io.Reader) error {
	body, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	for _, rc := range se.rcpts {
		var msg bytes.Buffer
		fmt.Fprintf(&msg, "Return-Path: <%s>\r\nDelivered-To: %s\r\n", se.from, rc.addr)
		msg.Write(body)
		done := se.s.store.change(strings.ToLower(rc.u.name))
		_, err := rc.u.mem.Append("INBOX", bytes.NewReader(msg.Bytes()), &imap.AppendOptions{})
		done()
		if err != nil {
			return fmt.Errorf("deliver to %s: %w", rc.addr, err)
		}
	}
	return nil
}

func (se *session) Reset() {
	se.from = ""
	se.rcpts = nil
}

func (se *session) Logout() error { return nil }

// printfLogger lets the servers log through slog. Once the System stops,
// it says nothing: the servers then report every connection they drop.
type printfLogger struct {
	log     *slog.Logger
	stopped func() bool
}

func (l printfLogger) Printf(format string, args ...any) {
	if !l.stopped() {
		l.log.Warn(strings.TrimSpace(fmt.Sprintf(format, args...)))
	}
}

func (l printfLogger) Println(args ...any) {
	if !l.stopped() {
		l.log.Warn(strings.TrimSpace(fmt.Sprintln(args...)))
	}
}

// idleSession is imapmemserver's session with IDLE fixed: imapmemserver
// announces only the changes made after IDLE began, so a message that came
// after the client's last command and before its IDLE was announced only
// by the next command. Pending changes are sent first.
//
// With a store, it also tells the store of every command that may change
// the user's mailboxes.
type idleSession struct {
	*imapmemserver.UserSession // nil until Login; with MOVE, NAMESPACE...
	users                      map[string]*user
	store                      *store // nil for none
	key                        string // the user's, once logged in
}

var _ imapserver.SessionIMAP4rev2 = (*idleSession)(nil)

func (s *idleSession) Login(username, password string) error {
	key := strings.ToLower(username)
	u := s.users[key]
	if u == nil {
		return imapserver.ErrAuthFailed
	}
	if err := u.mem.Login(username, password); err != nil {
		return err
	}
	s.UserSession = imapmemserver.NewUserSession(u.mem)
	s.key = key
	return nil
}

// change is called before a command that may change the mailboxes; the
// function it returns, after it.
func (s *idleSession) change() func() { return s.store.change(s.key) }

func (s *idleSession) Create(mailbox string, options *imap.CreateOptions) error {
	defer s.change()()
	return s.UserSession.Create(mailbox, options)
}

func (s *idleSession) Delete(mailbox string) error {
	defer s.change()()
	return s.UserSession.Delete(mailbox)
}

func (s *idleSession) Rename(mailbox, newName string, options *imap.RenameOptions) error {
	defer s.change()()
	return s.UserSession.Rename(mailbox, newName, options)
}

func (s *idleSession) Subscribe(mailbox string) error {
	defer s.change()()
	return s.UserSession.Subscribe(mailbox)
}

func (s *idleSession) Unsubscribe(mailbox string) error {
	defer s.change()()
	return s.UserSession.Unsubscribe(mailbox)
}

func (s *idleSession) Append(mailbox string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	defer s.change()()
	return s.UserSession.Append(mailbox, r, options)
}

func (s *idleSession) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	defer s.change()()
	return s.UserSession.Expunge(w, uids)
}

func (s *idleSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	defer s.change()()
	return s.UserSession.Store(w, numSet, flags, options)
}

func (s *idleSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	defer s.change()()
	return s.UserSession.Copy(numSet, dest)
}

func (s *idleSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	defer s.change()()
	return s.UserSession.Move(w, numSet, dest)
}

// Fetch sets \Seen on the messages whose body it reads without PEEK.
func (s *idleSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	for _, bs := range options.BodySection {
		if !bs.Peek {
			defer s.change()()
			break
		}
	}
	return s.UserSession.Fetch(w, numSet, options)
}

func (s *idleSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	if err := s.UserSession.Poll(w, true); err != nil {
		return err
	}
	return s.UserSession.Idle(w, stop)
}
