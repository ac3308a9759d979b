package main

import (
	"bytes"
	"context"
	"errors"
	"github.com/congobymail/congo/config"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCleartextPasswordRefused checks that an imap:// or smtp:// URL that
// would send a password unencrypted to a host that is not loopback is
// refused, by -check-config and at startup, with the setting at fault and
// the way out, unless -insecure (CONGO_INSECURE, insecure) allows it.
func TestCleartextPasswordRefused(t *testing.T) {
	t.Parallel()
	pwFile := writeFile(t, "pw", "secret\n")
	const (
		imapTLS  = `imap = "imaps://congo:Sekr1t@mail.example.org/INBOX"` + "\n"
		smtpTLS  = `smtp = "smtp+starttls://congo:Sekr1t@mail.example.org:587"` + "\n"
		address  = `address = "congo@example.org"` + "\n"
		imapOpen = `imap = "imap://congo:Sekr1t@mail.example.org/INBOX"` + "\n"
		smtpOpen = `smtp = "smtp://congo:Sekr1t@mail.example.org:25"` + "\n"
	)
	tests := []struct {
		name    string
		file    string
		env     map[string]string
		args    []string
		wantKey string // "" for no error
	}{
		{"TLS", imapTLS + smtpTLS + address, nil, nil, ""},
		{"imap in clear", imapOpen + smtpTLS + address, nil, nil, "imap"},
		{"imap in clear, password from a file", `imap = "imap://congo@mail.example.org/INBOX"` + "\n" + smtpTLS + address +
			`imap-password-file = "` + pwFile + `"` + "\n", nil, nil, "imap"},
		{"imap in clear, from the environment", smtpTLS + address, map[string]string{"CONGO_IMAP": "imap://congo:Sekr1t@10.0.0.7/INBOX"}, nil, "imap"},
		{"smtp in clear", imapTLS + smtpOpen + address, nil, nil, "smtp"},
		{"smtp in clear, password from a file", imapTLS + `smtp = "smtp://congo@mail.example.org:25"` + "\n" + address +
			`smtp-password-file = "` + pwFile + `"` + "\n", nil, nil, "smtp"},
		{"smtp in clear without a password", imapTLS + `smtp = "smtp://mail.example.org:25"` + "\n" + address, nil, nil, ""},
		{"imap+starttls", `imap = "imap+starttls://congo:Sekr1t@mail.example.org/INBOX"` + "\n" + smtpTLS + address, nil, nil, ""},
		{"smtps", imapTLS + `smtp = "smtps://congo:Sekr1t@mail.example.org"` + "\n" + address, nil, nil, ""},
		{"loopback 127.0.0.1", `imap = "imap://congo:Sekr1t@127.0.0.1:143/INBOX"` + "\n" + `smtp = "smtp://congo:Sekr1t@127.0.0.1:25"` + "\n" + address, nil, nil, ""},
		{"loopback 127.1.2.3", `imap = "imap://congo:Sekr1t@127.1.2.3:143/INBOX"` + "\n" + smtpTLS + address, nil, nil, ""},
		{"loopback ::1", `imap = "imap://congo:Sekr1t@[::1]:143/INBOX"` + "\n" + `smtp = "smtp://congo:Sekr1t@[::1]:25"` + "\n" + address, nil, nil, ""},
		{"loopback localhost", `imap = "imap://congo:Sekr1t@LocalHost:143/INBOX"` + "\n" + `smtp = "smtp://congo:Sekr1t@localhost:25"` + "\n" + address, nil, nil, ""},
		{"not loopback: 128.0.0.1", `imap = "imap://congo:Sekr1t@128.0.0.1:143/INBOX"` + "\n" + smtpTLS + address, nil, nil, "imap"},
		{"not loopback: localhost.example.org", `imap = "imap://congo:Sekr1t@localhost.example.org/INBOX"` + "\n" + smtpTLS + address, nil, nil, "imap"},
		{"-insecure", imapOpen + smtpOpen + address, nil, []string{"-insecure"}, ""},
		{"CONGO_INSECURE", imapOpen + smtpOpen + address, map[string]string{"CONGO_INSECURE": "true"}, nil, ""},
		{"insecure in the file", imapOpen + smtpOpen + address + "insecure = true\n", nil, nil, ""},
	}
	for _, tt := range tests {
		file := writeFile(t, "congod.conf", tt.file)
		args := append([]string{"-config", file, "-check-config"}, tt.args...)
		err := validSettings(args, tt.env)
		if tt.wantKey == "" {
			if err != nil {
				t.Errorf("%s: run(%q) = %v, want configuration ok", tt.name, args, err)
			}
			continue
		}
		var se *config.SettingError
		if !errors.As(err, &se) || se.Key != tt.wantKey || !errors.Is(err, errCleartextPassword) {
			t.Errorf("%s: run(%q) = %v, want a password-in-clear error about key %q", tt.name, args, err, tt.wantKey)
			continue
		}
		secure := map[string]string{"imap": "imaps://", "smtp": "smtp+starttls://"}[tt.wantKey]
		for _, want := range []string{tt.wantKey, secure, "-insecure"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not say %q", tt.name, err, want)
			}
		}
		if strings.Contains(err.Error(), "Sekr1t") || strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: error %q shows the password", tt.name, err)
		}
	}

	// At startup, without -check-config: refused before any connection.
	var stdout bytes.Buffer
	file := writeFile(t, "congod.conf", imapOpen+smtpTLS+address)
	args := []string{"-config", file, "-db", filepath.Join(t.TempDir(), "congo.db")}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := run(ctx, args, env(nil), &stdout, io.Discard)
	var se *config.SettingError
	if !errors.As(err, &se) || se.Key != "imap" || !errors.Is(err, errCleartextPassword) {
		t.Errorf("run(%q) = %v, want a password-in-clear error about key imap", args, err)
	}
}

// validSettings parses and checks the settings args as -check-config does
// before it connects.
func validSettings(args []string, environ map[string]string) error {
	c, _, err := parseConfig(args, env(environ), io.Discard)
	if err != nil {
		return err
	}
	return c.validate()
}
