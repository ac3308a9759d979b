package mailmsg

import "testing"

func TestAuthenticationResults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		trust   string
		from    string
		headers []string
		want    bool
	}{
		{"dmarc pass", "mx.example.org", "alice@players.example",
			[]string{"mx.example.org; dmarc=pass header.from=players.example"}, true},
		{"dmarc pass, comment", "mx.example.org", "alice@players.example",
			[]string{"mx.example.org; spf=pass smtp.mailfrom=players.example; dmarc=pass (p=none dis=none) header.from=players.example"}, true},
		{"dmarc pass, authserv-id in another case", "MX.example.org", "alice@players.example",
			[]string{"mx.EXAMPLE.org; dmarc=pass header.from=players.example"}, true},
		{"dmarc pass for another domain", "mx.example.org", "alice@players.example",
			[]string{"mx.example.org; dmarc=pass header.from=evil.example"}, false},
		{"dmarc pass without header.from", "mx.example.org", "alice@players.example",
			[]string{"mx.example.org; dmarc=pass"}, false},
		{"dmarc fail", "mx.example.org", "alice@players.example",
			[]string{"mx.example.org; dmarc=fail header.from=players.example"}, false},
		// A DKIM pass alone proves nothing: DMARC, with header.from, is
		// what ties the signature to the From (docs/playing.md, Who may act).
		{"dkim pass header.d alone", "mx.example.org", "alice@players.example",
			[]string{"mx.example.org; dkim=pass header.d=players.example header.s=sel"}, false},
		{"dkim pass header.i alone", "mx.example.org", "alice@players.example",
			[]string{"mx.example.org; dkim=pass header.i=@players.example"}, false},
		{"dkim pass, dmarc fail", "mx.example.org", "alice@players.example",
			[]string{"mx.example.org; dkim=pass header.d=players.example; dmarc=fail header.from=players.example"}, false},
		{"dkim pass, dmarc pass", "mx.example.org", "alice@players.example",
			[]string{"mx.example.org; dkim=pass header.d=players.example; dmarc=pass header.from=players.example"}, true},
		{"dmarc pass, From domain in another case", "mx.example.org", "alice@Players.Example",
			[]string{"mx.example.org; dmarc=pass header.from=players.example"}, true},
		{"dkim pass for another domain", "mx.example.org", "alice@players.example",
			[]string{"mx.example.org; dkim=pass header.d=evil.example"}, false},
		{"dkim pass for a parent domain", "mx.example.org", "alice@mail.players.example",
			[]string{"mx.example.org; dkim=pass header.d=players.example"}, false},
		{"spf pass only", "mx.example.org", "alice@players.example",
			[]string{"mx.example.org; spf=pass smtp.mailfrom=players.example"}, false},
		{"untrusted server", "mx.example.org", "alice@players.example",
			[]string{"evil.example; dmarc=pass header.from=players.example"}, false},
		{"nothing trusted", "", "alice@players.example",
			[]string{"mx.example.org; dmarc=pass header.from=players.example"}, false},
		{"topmost trusted header decides", "mx.example.org", "alice@players.example",
			[]string{
				"mx.example.org; dmarc=fail header.from=players.example",
				"mx.example.org; dmarc=pass header.from=players.example",
			}, false},
		{"other servers' headers above are skipped", "mx.example.org", "alice@players.example",
			[]string{
				"filter.example.org; dmarc=fail header.from=players.example",
				"mx.example.org; dmarc=pass header.from=players.example",
			}, true},
		{"no headers", "mx.example.org", "alice@players.example", nil, false},
		{"unparsable", "mx.example.org", "alice@players.example", []string{"mx.example.org 2; dmarc=pass"}, false},
	}
	for _, tt := range tests {
		m := &Incoming{From: tt.from, AuthResults: tt.headers}
		if got := m.Authenticated(tt.trust); got != tt.want {
			t.Errorf("%s: Authenticated(%q) of From %s, %q = %v, want %v", tt.name, tt.trust, tt.from, tt.headers, got, tt.want)
		}
	}
}
