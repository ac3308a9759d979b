package config

import (
	"flag"
	"io"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write the example configuration file and the docs' settings table from the settings")

// TestExampleFile checks that contrib/congod.conf.example is the file the
// settings make (ExampleFile); -update writes it.
func TestExampleFile(t *testing.T) {
	t.Parallel()
	const path = "../contrib/congod.conf.example"
	want := ExampleFile()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is not the file the settings make: run go test ./config -update", path)
	}
}

// TestSettingsTable checks that the settings table of docs/operating.md
// is the one the settings make (MarkdownTable), between its two marks;
// -update writes it.
func TestSettingsTable(t *testing.T) {
	t.Parallel()
	const path = "../docs/operating.md"
	const begin, end = "<!-- settings: made by go test ./config -update -->\n", "<!-- end of settings -->\n"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok := strings.Cut(string(b), begin)
	_, after, ok2 := strings.Cut(rest, end)
	if !ok || !ok2 {
		t.Fatalf("%s has no settings table between %q and %q", path, begin, end)
	}
	made := before + begin + MarkdownTable() + end + after
	if *update {
		if err := os.WriteFile(path, []byte(made), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(b) != made {
		t.Errorf("the settings table of %s is not the one the settings make: run go test ./config -update", path)
	}
}

// TestDocumented checks that every setting has its words, a group and a
// usage line, and that the flags take each default.
func TestDocumented(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, f := range fields {
		if f.usage == "" || f.doc == "" || f.group == "" {
			t.Errorf("setting %s lacks its usage, doc or group", f.key)
		}
		if seen[f.key] {
			t.Errorf("setting %s twice", f.key)
		}
		seen[f.key] = true
	}
	d := Defaults()
	fs := d.Flags("congod", io.Discard)
	if fs.Lookup("poll").DefValue != "1m0s" || fs.Lookup("robot").DefValue != DefaultRobot {
		t.Errorf("the flags' defaults are not Defaults(): poll %q, robot %q", fs.Lookup("poll").DefValue, fs.Lookup("robot").DefValue)
	}
}

// TestLoad checks the order of precedence: a flag over the environment
// over the file over the default, and where each came from.
func TestLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := dir + "/congod.conf"
	if err := os.WriteFile(file, []byte("poll = \"2m\"\nname = \"File\"\nmax-tries = 7\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CONGO_NAME": "Env", "CONGO_MAX_TRIES": "8"}
	s, rest, err := Load([]string{"-config", file, "-max-tries", "9", "backup", "x.db"}, func(k string) string { return env[k] }, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Poll.String() != "2m0s" || s.Name != "Env" || s.MaxTries != 9 || s.Robot != DefaultRobot {
		t.Errorf("Load: poll %v, name %q, max-tries %d, robot %q; want 2m, Env, 9, %s", s.Poll, s.Name, s.MaxTries, s.Robot, DefaultRobot)
	}
	if got := s.From("poll"); got != file+`: key "poll"` {
		t.Errorf("poll from %q", got)
	}
	if s.From("name") != "CONGO_NAME" || s.From("max-tries") != "-max-tries" || s.From("robot") != "" {
		t.Errorf("from: name %q, max-tries %q, robot %q", s.From("name"), s.From("max-tries"), s.From("robot"))
	}
	if strings.Join(rest, " ") != "backup x.db" {
		t.Errorf("rest %q, want backup x.db", rest)
	}
}
