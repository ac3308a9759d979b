package server

import (
	"crypto/subtle"
	"strings"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
)

// proves reports whether mail m proves that it comes from player p: it
// was sent to p's personal address, or a trusted receiving server found
// its From domain authentic.
func (s *Server) proves(m *mailmsg.Incoming, p db.Player) bool {
	// A mail with several From addresses names no one sender for sure.
	if m.FromCount > 1 {
		return false
	}
	return s.sentToPersonal(m, p) || s.trustAuthServ != "" && m.Authenticated(s.trustAuthServ)
}

// sentToPersonal reports whether one of the mail's header recipients is
// p's personal address. The secret is compared ignoring case, in constant
// time.
func (s *Server) sentToPersonal(m *mailmsg.Incoming, p db.Player) bool {
	want := []byte(strings.ToLower(p.Secret))
	found := false
	for _, r := range m.HeaderRecipients {
		secret, ok := s.tell.PersonalSecret(r)
		if !ok {
			continue
		}
		if subtle.ConstantTimeCompare([]byte(strings.ToLower(secret)), want) == 1 {
			found = true
		}
	}
	return found && len(want) > 0
}
