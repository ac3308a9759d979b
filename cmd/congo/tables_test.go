package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestTables builds the tables of a zebra against the lone lion, then
// probes positions of it and outside it (M76).
func TestTables(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"tables", dir, "LZvL"}, &stdout, &stderr); code != 0 {
		t.Fatalf("congo tables %s LZvL = %d, %q", dir, code, stderr.String())
	}
	if out := stdout.String(); !strings.HasPrefix(out, "LZvL          4230 positions:") || !strings.Contains(out, "1 tables, 4230 positions, 4426 bytes in "+dir) {
		t.Errorf("congo tables %s LZvL printed\n%s", dir, out)
	}
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"probe", "7/7/3l3/7/3Z3/7/3L3 w 1", "-tables", dir}, 0, "win 9\n"},
		{[]string{"probe", "7/7/3l3/7/3Z3/7/3L3 b 1", "-tables", dir}, 0, "loss 9\n"},
		{[]string{"probe", "3l3/7/3z3/7/3L3/7/7 b 1", "-tables", dir}, 0, "win 9\n"},   // the colour mirror
		{[]string{"probe", "3l3/7/7/3Z3/7/7/3L3 w 1", "-tables", dir}, 0, "draw\n"},    // R13: the zebra drowns
		{[]string{"probe", "3l3/7/7/7/7/7/3L3 w 1", "-tables", dir}, 0, "win 1\n"},     // R4, R17
		{[]string{"probe", "2l4/7/7/7/7/7/3L3 w 1", "-tables", dir}, 0, "draw\n"},      // R17
		{[]string{"probe", "3l3/7/7/3E3/7/7/3L3 w 1", "-tables", dir}, 0, "unknown\n"}, // no table built
		{[]string{"probe", "start", "-tables", dir}, 0, "unknown\n"},
		{[]string{"probe", "3L3/7/7/7/7/7/7 b 2", "-tables", dir}, 0, "unknown\n"}, // a lion captured
		{[]string{"probe", "3l3/7/7/7/7/7/3L3 w 1", "-tables", dir + "/none"}, 1, ""},
		{[]string{"probe", "3l3/7/7/7/7/7/3L3 w 1", "-depth", "3"}, 2, ""},
		{[]string{"tables", dir, "LXvL"}, 2, ""},
	} {
		var stdout, stderr bytes.Buffer
		code := run(c.args, &stdout, &stderr)
		if code != c.code || stdout.String() != c.out {
			t.Errorf("run(%q) = %d, %q (stderr %q), want %d, %q", c.args, code, stdout.String(), stderr.String(), c.code, c.out)
		}
	}
	// Found in CONGO_TABLES without -tables.
	t.Setenv(tablesEnv, dir)
	stdout.Reset()
	if code := run([]string{"probe", "7/7/3l3/7/3Z3/7/3L3 w 1"}, &stdout, &stderr); code != 0 || stdout.String() != "win 9\n" {
		t.Errorf("congo probe with %s=%s = %d, %q", tablesEnv, dir, code, stdout.String())
	}
}
