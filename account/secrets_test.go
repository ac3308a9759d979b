package account

import (
	"strings"
	"testing"
)

// TestSecretWindows (M57): a secret reads as itself in every form a mail
// may carry it.
func TestSecretWindows(t *testing.T) {
	const secret = "abcdefghijklmnopqrstuvwx23"
	forms := []string{
		secret,
		"congo+" + secret + "@example.org",
		"congo%2B" + secret + "%40example.org",
		"ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸ２３", // full width
		"abcde fghij klmno pqrst uvwx2 3",
		"abc.def.ghi-jkl-mno.pqr.stu.vwx.23",
		"ab\u200bcdefghijklm\u200dnopqrstuvwx\u00ad23",
		"%61%62cdefghijklmnopqrstuvwx23",
		"ABCDEFGHIJKLMNOPQRSTUVWX23",
		`"congo+` + secret + `"@example.org`,
	}
	for _, f := range forms {
		found := false
		for _, w := range secretWindows("see: " + f + " !") {
			found = found || w.text == secret
		}
		if !found {
			t.Errorf("secretWindows(%q) does not read %s", f, secret)
		}
	}
	for _, prose := range []string{"b2-b3", "a fine move, well played", strings.Repeat("x", 25)} {
		if ws := secretWindows(prose); len(ws) != 0 {
			t.Errorf("secretWindows(%q) = %v, want none", prose, ws)
		}
	}
}

func TestCut(t *testing.T) {
	text := "xxABCyyDEFzz"
	if got, want := cut(text, [][2]int{{7, 10}, {2, 5}, {3, 4}}), "xx"+Removed+"yy"+Removed+"zz"; got != want {
		t.Errorf("cut = %q, want %q", got, want)
	}
	in := "mine: abcde fghij klmno pqrst uvwx2 3, yours?"
	ws := secretWindows(in)
	if len(ws) != 1 {
		t.Fatalf("windows of %q: %v", in, ws)
	}
	if got, want := cut(in, [][2]int{{ws[0].start, ws[0].end}}), "mine: "+Removed+", yours?"; got != want {
		t.Errorf("cut = %q, want %q", got, want)
	}
}
