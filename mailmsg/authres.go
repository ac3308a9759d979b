package mailmsg

import (
	"strings"

	"github.com/emersion/go-msgauth/authres"
)

// Authenticated reports whether the topmost Authentication-Results
// header of authserv, the receiving server trusted, says the mail passed
// DMARC for the domain of its From (dmarc=pass with header.from). A DKIM
// pass alone proves nothing: the signature's domain need not be the
// From's, and only DMARC checks that they align.
func (m *Incoming) Authenticated(authserv string) bool {
	fromDomain := domainOf(m.From)
	if authserv == "" || fromDomain == "" {
		return false
	}
	for _, h := range m.AuthResults {
		id, results, err := authres.Parse(h)
		if !strings.EqualFold(id, authserv) {
			continue
		}
		if err != nil {
			return false
		}
		return passes(results, fromDomain)
	}
	return false
}

// passes reports whether results hold a DMARC pass whose header.from is
// fromDomain.
func passes(results []authres.Result, fromDomain string) bool {
	for _, r := range results {
		// Without header.from the pass may be for another domain.
		if r, ok := r.(*authres.DMARCResult); ok && r.Value == authres.ResultPass && strings.EqualFold(r.From, fromDomain) {
			return true
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
