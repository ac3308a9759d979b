package server

import (
	"crypto/subtle"
	"encoding/base32"
	"fmt"
	"io"
	"strings"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
)

// secretLen is the length of a personal address secret: 26 base32
// characters carry 130 random bits (M6).
const secretLen = 26

// secretEncoding writes secrets in lowercase letters and digits only,
// because some mail systems change the case of local parts (M6).
var secretEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newSecret makes a new personal address secret.
func (s *Server) newSecret() (string, error) {
	b := make([]byte, 17) // 136 bits, of which the first 130 are used
	if _, err := io.ReadFull(s.rand, b); err != nil {
		return "", fmt.Errorf("make secret: %w", err)
	}
	return secretEncoding.EncodeToString(b)[:secretLen], nil
}

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
		local, domain, ok := cutAddress(r)
		if !ok || !strings.EqualFold(domain, s.domain) {
			continue
		}
		base, secret, ok := strings.Cut(local, "+")
		if !ok || !strings.EqualFold(base, s.local) {
			continue
		}
		if subtle.ConstantTimeCompare([]byte(strings.ToLower(secret)), want) == 1 {
			found = true
		}
	}
	return found && len(want) > 0
}
