package lang

import (
	"testing"

	"golang.org/x/text/feature/plural"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Code
		ok   bool
	}{
		{"en", English, true},
		{"ja", Japanese, true},
		{"cs", Czech, true},
		{"EN", English, true},
		{"English", English, true},
		{"japanese", Japanese, true},
		{"日本語", Japanese, true},
		{"czech", Czech, true},
		{"čeština", Czech, true},
		{"Čeština", Czech, true},
		{"česky", Czech, true},
		{"ČESKY", Czech, true},
		{"ｊａ", Japanese, true},       // full-width, as a Japanese input method writes it
		{"ＪＡＰＡＮＥＳＥ", Japanese, true}, // NFKC
		{"ja-JP", Japanese, true},
		{"cs_CZ", Czech, true},
		{"en-GB", English, true},
		{"de", "", false},
		{"klingon", "", false},
		{"", "", false},
		{"c", "", false},
		{"ja jp", "", false},
		{"und", "", false},
	}
	for _, tt := range tests {
		got, ok := Parse(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Parse(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestFromContentLanguage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Code
		ok   bool
	}{
		{"ja", Japanese, true},
		{"ja-JP", Japanese, true},
		{"cs-CZ", Czech, true},
		{" en-US ", English, true},
		{"de, cs", Czech, true},
		{"cs, en", Czech, true},
		{"de-DE", "", false},
		{"", "", false},
		{"日本語", "", false}, // a tag, not a word
		{"x-klingon", "", false},
	}
	for _, tt := range tests {
		got, ok := FromContentLanguage(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("FromContentLanguage(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestForms checks the plural forms against CLDR's rules: each language
// gives every whole number one of its Forms, and uses all of them.
func TestForms(t *testing.T) {
	t.Parallel()
	for _, c := range All {
		used := map[int]bool{}
		for n := range 2000 {
			f := plural.Cardinal.MatchPlural(c.Tag(), n, 0, 0, 0, 0)
			i := c.Form(n)
			if c.Forms()[i] != f {
				t.Errorf("%s: Form(%d) = %d (%v), CLDR says %v", c, n, i, c.Forms()[i], f)
			}
			used[i] = true
		}
		if len(used) != len(c.Forms()) {
			t.Errorf("%s: whole numbers take %d of its %d forms", c, len(used), len(c.Forms()))
		}
	}
	// Czech: 1 den, 2 dny, 5 dní; and unlike Polish, 22 dní, 0 dní.
	for n, want := range map[int]int{0: 2, 1: 0, 2: 1, 3: 1, 4: 1, 5: 2, 11: 2, 21: 2, 22: 2, 101: 2, 104: 2} {
		if got := Czech.Form(n); got != want {
			t.Errorf("Czech.Form(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestOr(t *testing.T) {
	t.Parallel()
	if got := Code("").Or(Czech); got != Czech {
		t.Errorf(`Code("").Or(Czech) = %q`, got)
	}
	if got := Code("de").Or(English); got != English {
		t.Errorf(`Code("de").Or(English) = %q`, got)
	}
	if got := Japanese.Or(English); got != Japanese {
		t.Errorf(`Japanese.Or(English) = %q`, got)
	}
}
