package tell

import (
	"testing"

	"github.com/congobymail/congo/config"
)

func TestOwnAddress(tt *testing.T) {
	tt.Parallel()
	teller, err := New(config.Settings{Address: "congo@example.org"}, nil, nil, nil)
	if err != nil {
		tt.Fatal(err)
	}
	tests := []struct {
		addr string
		want bool
	}{
		{"congo@example.org", true},
		{"CONGO@Example.ORG", true},
		{"congo+abc@example.org", true},
		{"congo+@example.org", true},
		{"congo@example.com", false},
		{"congoo@example.org", false},
		{"alice@example.org", false},
		{"", false},
	}
	for _, c := range tests {
		if got := teller.IsOwn(c.addr); got != c.want {
			tt.Errorf("IsOwn(%q) = %v, want %v", c.addr, got, c.want)
		}
	}
}
