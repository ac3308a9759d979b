package analysis

import (
	"reflect"
	"strings"
	"testing"
)

// TestEncodeRoundTrip: Decode(Encode(a)) is a, for the games of the tests
// and a game of no moves.
func TestEncodeRoundTrip(t *testing.T) {
	t.Parallel()
	for _, game := range []string{blunderGame, missedGame, quietGame, ""} {
		a := analyze(t, game)
		data, err := a.Encode()
		if err != nil {
			t.Fatalf("Encode(%q): %v", game, err)
		}
		b, err := Decode(data)
		if err != nil {
			t.Fatalf("Decode(Encode(%q)): %v\n%s", game, err, data)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("Decode(Encode(%q)) = %+v, want %+v", game, b, a)
		}
		if x, y := a.Text()+a.SVG()+a.Movetext(""), b.Text()+b.SVG()+b.Movetext(""); x != y {
			t.Errorf("Decode(Encode(%q)) renders\n%s\nwant\n%s", game, y, x)
		}
	}
}

// TestDecodeErrors: what Decode refuses.
func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	good, err := analyze(t, blunderGame).Encode()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, old, new string }{
		{"not JSON", `{"v":1`, `{"v":`},
		{"another version", `"v":1`, `"v":2`},
		{"no nodes", `"nodes":20000`, `"nodes":0`},
		{"an illegal move", `"d2-e3","d6-c5"`, `"d2-e3","d6-d4"`},
		{"a position too few", `"found":[{`, `"found":[{"best":"a2-a3"},{`},
		{"an illegal best move", `"best":"`, `"best":"a1-a7","x":"`},
	} {
		bad := strings.Replace(string(good), c.old, c.new, 1)
		if bad == string(good) {
			t.Fatalf("%s: %q is not in %s", c.name, c.old, good)
		}
		if a, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode with %s = %+v, want an error:\n%s", c.name, a, bad)
		}
	}
}

// FuzzDecode: Decode never panics, and what it reads it writes back the
// same.
func FuzzDecode(f *testing.F) {
	for _, game := range []string{blunderGame, missedGame} {
		data, err := analyze(f, game).Encode()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"v":1,"nodes":1,"moves":[],"found":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Decode(data)
		if err != nil {
			return
		}
		again, err := a.Encode()
		if err != nil {
			t.Fatalf("Encode(Decode(%q)): %v", data, err)
		}
		b, err := Decode(again)
		if err != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("Decode(Encode(Decode(%q))) = %+v, %v; want %+v", data, b, err, a)
		}
	})
}
