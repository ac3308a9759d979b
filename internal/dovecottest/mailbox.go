package dovecottest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/congobymail/congo/mailer/loopback"
)

// Client logs in as a user over plain IMAP.
func (s *Server) Client(name string) (*imapclient.Client, error) {
	u, ok := s.users[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("dovecottest: no user %q", name)
	}
	c, err := imapclient.DialInsecure(s.Addr, nil)
	if err != nil {
		return nil, err
	}
	if err := c.Login(u.Name, u.Password).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("dovecot login as %s: %w", name, err)
	}
	return c, nil
}

// Append puts raw into a user's mailbox.
func (s *Server) Append(name, mailbox string, raw []byte, flags ...imap.Flag) error {
	c, err := s.Client(name)
	if err != nil {
		return err
	}
	defer c.Close()
	cmd := c.Append(mailbox, int64(len(raw)), &imap.AppendOptions{Flags: flags})
	if _, err := cmd.Write(raw); err != nil {
		return err
	}
	if err := cmd.Close(); err != nil {
		return err
	}
	if _, err := cmd.Wait(); err != nil {
		return fmt.Errorf("dovecot append to %s of %s: %w", mailbox, name, err)
	}
	return nil
}

// Message is a stored message.
type Message = loopback.Message

// Fetch returns the messages of a user's mailbox, oldest first, without
// changing their flags; none when the mailbox does not exist.
func (s *Server) Fetch(name, mailbox string) ([]Message, error) {
	c, err := s.Client(name)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	msgs, err := loopback.ReadMailbox(c, mailbox)
	var ie *imap.Error
	if errors.As(err, &ie) && ie.Code == imap.ResponseCodeNonExistent {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("dovecot: mailbox of %s: %w", name, err)
	}
	return msgs, nil
}

// Messages returns the raw messages of a user's mailbox, oldest first.
func (s *Server) Messages(name, mailbox string) ([][]byte, error) {
	msgs, err := s.Fetch(name, mailbox)
	raws := make([][]byte, len(msgs))
	for i, m := range msgs {
		raws[i] = m.Raw
	}
	return raws, err
}
