package server

import (
	"crypto/subtle"
	"encoding/base32"
	"fmt"
	"io"
	"strings"

	"github.com/emersion/go-msgauth/authres"

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
	return s.sentToPersonal(m, p) || s.authenticated(m)
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

// authenticated reports whether the topmost Authentication-Results header
// of the trusted server says the mail passed DMARC, or DKIM for the
// domain of its From.
func (s *Server) authenticated(m *mailmsg.Incoming) bool {
	if s.trustAuthServ == "" {
		return false
	}
	_, fromDomain, ok := cutAddress(m.From)
	if !ok {
		return false
	}
	for _, h := range m.AuthResults {
		id, results, err := authres.Parse(h)
		if !strings.EqualFold(id, s.trustAuthServ) {
			continue
		}
		if err != nil {
			return false
		}
		return passes(results, fromDomain)
	}
	return false
}

// passes reports whether results hold a DMARC pass, or a DKIM pass whose
// signing domain or identity is fromDomain.
func passes(results []authres.Result, fromDomain string) bool {
	for _, r := range results {
		switch r := r.(type) {
		case *authres.DMARCResult:
			// Without header.from the pass may be for another domain.
			if r.Value == authres.ResultPass && strings.EqualFold(r.From, fromDomain) {
				return true
			}
		case *authres.DKIMResult:
			if r.Value != authres.ResultPass {
				continue
			}
			if strings.EqualFold(r.Domain, fromDomain) || strings.EqualFold(domainOf(r.Identifier), fromDomain) {
				return true
			}
		}
	}
	return false
}

// domainOf returns what follows the last "@" of an address or identity
// ("@example.org" included), or "" when there is no "@".
func domainOf(addr string) string {
	i := strings.LastIndexByte(addr, '@')
	if i < 0 {
		return ""
	}
	return addr[i+1:]
}
