package main

import (
	"bytes"
	"context"
	"errors"
	"github.com/congobymail/congo/config"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/lang"
)

// writeFile writes content to name in a temporary directory and returns
// its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigPrecedence(t *testing.T) {
	t.Parallel()
	file := writeFile(t, "congod.conf", `
poll = "2m"
db = "file.db"
max-tries = 7
insecure-skip-verify = true
`)
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		wantPoll time.Duration
		wantDB   string
		wantTLS  bool
		wantFrom string // where poll came from
	}{
		{"default", nil, nil, time.Minute, "congo.db", false, ""},
		{"file", []string{"-config", file}, nil, 2 * time.Minute, "file.db", true, file + `: key "poll"`},
		{"config file from the environment", nil, map[string]string{"CONGO_CONFIG": file}, 2 * time.Minute, "file.db", true, file + `: key "poll"`},
		{"env over file", []string{"-config", file}, map[string]string{"CONGO_POLL": "3m", "CONGO_INSECURE_SKIP_VERIFY": "false"}, 3 * time.Minute, "file.db", false, "CONGO_POLL"},
		{"flag over env and file", []string{"-config", file, "-poll", "4m", "-db", "flag.db"}, map[string]string{"CONGO_POLL": "3m", "CONGO_DB": "env.db"}, 4 * time.Minute, "flag.db", true, "-poll"},
		{"env over default", nil, map[string]string{"CONGO_POLL": "3m"}, 3 * time.Minute, "congo.db", false, "CONGO_POLL"},
		{"flags after the subcommand", []string{"backup", "-config", file, "-poll", "4m", "out.db"}, nil, 4 * time.Minute, "file.db", true, "-poll"},
	}
	for _, tt := range tests {
		c, _, err := parseConfig(tt.args, env(tt.env), io.Discard)
		if err != nil {
			t.Errorf("%s: parseConfig(%q) = %v", tt.name, tt.args, err)
			continue
		}
		if c.Poll != tt.wantPoll || c.DB != tt.wantDB || c.InsecureSkipVerify != tt.wantTLS {
			t.Errorf("%s: parseConfig(%q): poll, db, insecure-skip-verify = %v, %q, %v, want %v, %q, %v",
				tt.name, tt.args, c.Poll, c.DB, c.InsecureSkipVerify, tt.wantPoll, tt.wantDB, tt.wantTLS)
		}
		if c.From("poll") != tt.wantFrom {
			t.Errorf("%s: parseConfig(%q): poll from %q, want %q", tt.name, tt.args, c.From("poll"), tt.wantFrom)
		}
	}
}

func TestSubcommandArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want []string
	}{
		{nil, nil},
		{[]string{"backup", "b.db"}, []string{"backup", "b.db"}},
		{[]string{"-db", "x.db", "backup", "b.db"}, []string{"backup", "b.db"}},
		{[]string{"backup", "-db", "x.db", "b.db"}, []string{"backup", "b.db"}},
	}
	for _, tt := range tests {
		_, rest, err := parseConfig(tt.args, env(nil), io.Discard)
		if err != nil || strings.Join(rest, " ") != strings.Join(tt.want, " ") {
			t.Errorf("parseConfig(%q) = %q, %v, want %q", tt.args, rest, err, tt.want)
		}
	}
}

// good is a configuration that passes -check-config.
const good = `
imap = "imap://congo@127.0.0.1:1143/INBOX"
smtp = "smtp://127.0.0.1:2525"
address = "congo@example.org"
`

// TestCheckConfigNamesBadKey checks that each bad setting is reported
// with its key, from the file, the environment or a flag.
func TestCheckConfigNamesBadKey(t *testing.T) {
	t.Parallel()
	pwFile := writeFile(t, "pw", "secret\n")
	tests := []struct {
		name string
		file string
		env  map[string]string
		args []string
		key  string
	}{
		{"unknown key", good + "pol = \"1m\"\n", nil, nil, "pol"},
		{"command as a key", good + "version = true\n", nil, nil, "version"},
		{"bad duration", good + "poll = \"soon\"\n", nil, nil, "poll"},
		{"duration not a string", good + "poll = 60\n", nil, nil, "poll"},
		{"number as a bool", good + "max-tries = true\n", nil, nil, "max-tries"},
		{"number not whole", good + "max-tries = 2.5\n", nil, nil, "max-tries"},
		{"number as text", good + "max-tries = \"many\"\n", nil, nil, "max-tries"},
		{"negative duration", good + "poll = \"-1s\"\n", nil, nil, "poll"},
		{"bool as a string", good + "insecure-skip-verify = \"yes\"\n", nil, nil, "insecure-skip-verify"},
		{"string as a bool", good + "hostname = true\n", nil, nil, "hostname"},
		{"table", good + "[hostname]\nname = \"x\"\n", nil, nil, "hostname"},
		{"toml syntax", good + "processed = \n", nil, nil, "processed"},
		{"imap missing", "smtp = \"smtp://h:25\"\naddress = \"c@x.org\"\n", nil, nil, "imap"},
		{"imap scheme", good + "", nil, []string{"-imap", "ftp://congo@h/INBOX"}, "imap"},
		{"imap without user", good, map[string]string{"CONGO_IMAP": "imaps://h/INBOX"}, nil, "imap"},
		{"smtp scheme", strings.Replace(good, "smtp://", "http://", 1), nil, nil, "smtp"},
		{"address", strings.Replace(good, "congo@example.org", "congo", 1), nil, nil, "address"},
		{"processed is the inbox", good + "processed = \"INBOX\"\n", nil, nil, "imap"},
		{"operator", good + "operator = \"carol\"\n", nil, nil, "operator"},
		{"log level", good + "log-level = \"loud\"\n", nil, nil, "log-level"},
		{"tables", good, nil, []string{"-tables", "/nonexistent/congo-tables"}, "tables"},
		{"log format", good + "log-format = \"xml\"\n", nil, nil, "log-format"},
		{"http", good + "http = \"8025\"\n", nil, nil, "http"},
		{"web", good + "web = \"8080\"\n", nil, nil, "web"},
		{"public url", good + "web = \"127.0.0.1:8080\"\npublic-url = \"congo.example.org\"\n", nil, nil, "public-url"},
		{"public url with a query", good, map[string]string{"CONGO_WEB": ":8080", "CONGO_PUBLIC_URL": "https://congo.example.org/?x=1"}, nil, "public-url"},
		{"public url without web", good + "public-url = \"https://congo.example.org/\"\n", nil, nil, "public-url"},
		{"ca file", good + "ca-file = \"/nonexistent/ca.pem\"\n", nil, nil, "ca-file"},
		{"password file missing", good + "imap-password-file = \"/nonexistent/pw\"\n", nil, nil, "imap-password-file"},
		{"password twice", strings.Replace(good, "congo@127", "congo:pw@127", 1) + "imap-password-file = \"" + pwFile + "\"\n", nil, nil, "imap-password-file"},
		{"password without user", good + "smtp-password-file = \"" + pwFile + "\"\n", nil, nil, "smtp-password-file"},
		{"bad env", good, map[string]string{"CONGO_POLL": "soon"}, nil, "poll"},
		{"no config file", good, nil, []string{"-config", "/nonexistent/congod.conf"}, "config"},
		{"tls server name with a port", good + "tls-server-name = \"mail.example.org:993\"\n", nil, nil, "tls-server-name"},
		{"tls server name from env", good, map[string]string{"CONGO_TLS_SERVER_NAME": "imaps://mail.example.org"}, nil, "tls-server-name"},
		{"robot handle", good + "robot = \"r2 d2\"\n", nil, nil, "robot"},
		{"robot handle from env", good, map[string]string{"CONGO_ROBOT": "x"}, nil, "robot"},
		{"language", good + "language = \"de\"\n", nil, nil, "language"},
		{"language from env", good, map[string]string{"CONGO_LANGUAGE": "klingon"}, nil, "language"},
	}
	for _, tt := range tests {
		file := writeFile(t, "congod.conf", tt.file)
		args := append([]string{"-config", file, "-check-config"}, tt.args...)
		var stdout bytes.Buffer
		err := run(context.Background(), args, env(tt.env), &stdout, io.Discard)
		var se *config.SettingError
		if !errors.As(err, &se) || se.Key != tt.key {
			t.Errorf("%s: run(%q) = %v, want an error about key %q", tt.name, args, err, tt.key)
			continue
		}
		if !strings.Contains(err.Error(), tt.key) {
			t.Errorf("%s: error %q does not name %q", tt.name, err, tt.key)
		}
		if stdout.Len() > 0 {
			t.Errorf("%s: run(%q) printed %q", tt.name, args, stdout.String())
		}
	}
}

// TestCheckConfigOK checks settings that are valid, with the passwords
// read from their files (validate: -check-config then connects, see
// TestCheckConfigConnects).
func TestCheckConfigOK(t *testing.T) {
	t.Parallel()
	imapPW := writeFile(t, "imap-pw", "s3cr3t@\n")
	smtpPW := writeFile(t, "smtp-pw", "other")
	file := writeFile(t, "congod.conf", `
imap = "imap://congo@127.0.0.1:1143/INBOX"
smtp = "smtps://congo%40example.org@smtp.example.org"
address = "congo@example.org"
imap-password-file = "`+imapPW+`"
smtp-password-file = "`+smtpPW+`"
http = "127.0.0.1:8025"
web = ":8080"
public-url = "https://congo.example.org/"
log-format = "json"
`)
	args := []string{"-config", file, "-check-config"}
	c, _, err := parseConfig(args, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.validate(); err != nil {
		t.Fatal(err)
	}
	for _, u := range []struct{ raw, user, pw string }{
		{c.IMAP, "congo", "s3cr3t@"},
		{c.SMTP, "congo@example.org", "other"},
	} {
		parsed, err := url.Parse(u.raw)
		if err != nil {
			t.Fatal(err)
		}
		pw, _ := parsed.User.Password()
		if parsed.User.Username() != u.user || pw != u.pw {
			t.Errorf("URL with the password file: user %q password %q, want %q %q", parsed.User.Username(), pw, u.user, u.pw)
		}
	}
}

// TestExampleConfig checks contrib/congod.conf.example: with every key
// uncommented it is a valid file, it has a key for every setting, and each
// key shows its default (or, for a required setting, an example).
func TestExampleConfig(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../contrib/congod.conf.example")
	if err != nil {
		t.Fatal(err)
	}
	keyLine := regexp.MustCompile(`(?m)^#([a-z-]+ = .*)$`)
	uncommented := keyLine.ReplaceAllString(string(b), "$1")
	file := writeFile(t, "congod.conf", uncommented)
	c, _, err := parseConfig([]string{"-config", file}, env(nil), io.Discard)
	if err != nil {
		t.Fatalf("the example, uncommented: %v", err)
	}
	for _, key := range config.Keys() {
		if config.InFile(key) && c.From(key) == "" {
			t.Errorf("the example has no key %q", key)
		}
	}
	if err := c.validate(); err != nil {
		t.Errorf("the example, uncommented, does not validate: %v", err)
	}
}

func TestPseudoRevision(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"v0.0.0-20261129150000-abcdef123456", "abcdef123456"},
		{"v1.2.4-0.20261129150000-abcdef123456", "abcdef123456"},
		{"v0.0.0-20261129150000-abcdef123456+dirty", "abcdef123456"},
		{"v1.2.3", ""},
		{"(devel)", ""},
		{"v1.2.3-rc.1", ""},
	}
	for _, tt := range tests {
		if got := pseudoRevision(tt.in); got != tt.want {
			t.Errorf("pseudoRevision(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestVersionFlag(t *testing.T) {
	t.Parallel()
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"-version"}, env(nil), &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := stdout.String(); !strings.HasPrefix(got, "congod ") || !strings.Contains(got, "go1.") {
		t.Errorf("-version printed %q, want congod VERSION ... goVERSION", got)
	}
}

func TestNewLogger(t *testing.T) {
	t.Parallel()
	tests := []struct {
		level, format string
		want          string // the start of the line logged at info
	}{
		{"info", "text", "time="},
		{"info", "", "time="},
		{"info", "json", `{"time":`},
		{"warn", "json", ""},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		newLogger(&b, tt.level, tt.format).Info("mail handled", "handle", "alice")
		if got := b.String(); !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
			t.Errorf("newLogger(%q, %q) logged %q, want a line starting %q", tt.level, tt.format, got, tt.want)
		}
	}
}

func TestConfigFileNumber(t *testing.T) {
	t.Parallel()
	file := writeFile(t, "congod.conf", "max-tries = 7\nmax-size = \"8192\"\n")
	c, _, err := parseConfig([]string{"-config", file}, env(nil), io.Discard)
	if err != nil {
		t.Fatalf("parseConfig: %v", err)
	}
	if c.MaxTries != 7 || c.MaxSize != 8192 {
		t.Errorf("parseConfig(max-tries = 7, max-size = \"8192\") = %v, %v, %v, want 7, 8192, nil", c.MaxTries, c.MaxSize, err)
	}
}

func TestRobotSetting(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{nil, nil, "robot"},
		{[]string{"-robot", "deep-congo"}, nil, "deep-congo"},
		{nil, map[string]string{"CONGO_ROBOT": "bot"}, "bot"},
		{[]string{"-robot", "off"}, nil, ""},
		{[]string{"-robot", "OFF"}, nil, ""},
		{[]string{"-robot", ""}, map[string]string{"CONGO_ROBOT": "bot"}, ""},
	} {
		c, _, err := parseConfig(tt.args, env(tt.env), io.Discard)
		if err != nil {
			t.Errorf("parseConfig(%q, %v): %v", tt.args, tt.env, err)
			continue
		}
		if got := c.RobotHandle(); got != tt.want {
			t.Errorf("parseConfig(%q, %v).RobotHandle() = %q, want %q", tt.args, tt.env, got, tt.want)
		}
	}
}

// TestLanguageSetting: -language is a flag, CONGO_LANGUAGE and a key of
// the file, by code or by name (M40), en when none is given.
func TestLanguageSetting(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		env  map[string]string
		file string
		want lang.Code
	}{
		{nil, nil, "", lang.English},
		{[]string{"-language", "ja"}, nil, "", lang.Japanese},
		{nil, map[string]string{"CONGO_LANGUAGE": "cs"}, "", lang.Czech},
		{nil, nil, "language = \"čeština\"\n", lang.Czech},
		{[]string{"-language", "japanese"}, map[string]string{"CONGO_LANGUAGE": "cs"}, "", lang.Japanese},
	} {
		args := tt.args
		if tt.file != "" {
			args = append(args, "-config", writeFile(t, "congod.conf", tt.file))
		}
		c, _, err := parseConfig(args, env(tt.env), io.Discard)
		if err != nil {
			t.Errorf("parseConfig(%q, %v, %q): %v", tt.args, tt.env, tt.file, err)
			continue
		}
		if got := c.Lang(); got != tt.want {
			t.Errorf("parseConfig(%q, %v, %q).Lang() = %q, want %q", tt.args, tt.env, tt.file, got, tt.want)
		}
	}
	var none settings // made in Go, as the tests' daemons are
	if err := none.validate(); err != nil && strings.Contains(err.Error(), "language") {
		t.Errorf("a config without a language: %v, want it taken as en", err)
	}
	if got := none.Lang(); got != lang.English {
		t.Errorf("a config without a language: lang() = %q, want en", got)
	}
}

// TestREADMEQuickStart checks what README.md's Quick start tells a new
// user: how to run the tests without a C compiler, which tests skip when
// a program is missing (each a test that exists), and the demo's flags
// for other ports (each a flag).
func TestREADMEQuickStart(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, quick, ok := strings.Cut(string(b), "\n## Quick start")
	if !ok {
		t.Fatal("README.md has no Quick start section")
	}
	quick, _, _ = strings.Cut(quick, "\n## ")
	for _, want := range []string{"go test -race ./...", "go test ./...", "apt-get install gcc", ".ci/run", "-short"} {
		if !strings.Contains(quick, want) {
			t.Errorf("Quick start does not say %q", want)
		}
	}

	// The tests named as skipping: each exists, and Dovecot's and
	// Chromium's are all named.
	var sources strings.Builder
	filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, "_test.go") {
			b, _ := os.ReadFile(path)
			sources.Write(b)
		}
		return nil
	})
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`(Test[A-Za-z]+)`").FindAllStringSubmatch(quick, -1) {
		named[m[1]] = true
		if !strings.Contains(sources.String(), "func "+m[1]+"(t *testing.T)") {
			t.Errorf("Quick start names %s, which is no test", m[1])
		}
	}
	for _, m := range regexp.MustCompile(`func (Test[A-Za-z]*(?:Dovecot[A-Za-z]*|HTMLRendering))\(t \*testing\.T\)`).FindAllStringSubmatch(sources.String(), -1) {
		if !named[m[1]] {
			t.Errorf("Quick start does not name %s among the tests that skip", m[1])
		}
	}

	d := config.Defaults()
	fs := d.Flags("congod", io.Discard)
	for _, name := range []string{"demo-imap", "demo-smtp"} {
		if fs.Lookup(name) == nil || !strings.Contains(quick, "-"+name+" ") {
			t.Errorf("Quick start does not show -%s (or it is no flag)", name)
		}
	}
}
