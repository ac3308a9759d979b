package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/internal/dovecottest"
)

// TestCheckConfigConnects runs -check-config against Postfix and Dovecot:
// it says "configuration ok" when it could log in to both and write to
// the database, and otherwise names each part at fault with what is
// wrong: a wrong password, a mailbox not there, a certificate not
// trusted, a database path that takes no write.
func TestCheckConfigConnects(t *testing.T) {
	sys := startPostfix(t, dovecottest.User{Name: "congo", Password: "congo-pw"})
	good := sys.config(t, "congo-pw")
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.db")
	congotest.OpenDB(t, existing).Close()
	args := func(change map[string]string) []string {
		set := map[string]string{"imap": good.IMAP, "smtp": good.SMTP, "ca-file": good.CAFile,
			"address": good.Address, "db": filepath.Join(dir, "new.db")}
		for k, v := range change {
			set[k] = v
		}
		var a []string
		for k, v := range set {
			a = append(a, "-"+k+"="+v)
		}
		return append(a, "-check-config")
	}
	tests := []struct {
		name   string
		change map[string]string
		want   map[string]problem // the parts at fault
		says   string             // in the report
	}{
		{"all good, no database yet", nil, nil, "configuration ok"},
		{"all good, a database", map[string]string{"db": existing}, nil, "took a write"},
		{"IMAP mailbox missing", map[string]string{"imap": sys.d.URL("imaps", "congo", "INBOX") + "x"},
			map[string]problem{"imap": noMailbox}, "mailbox"},
		{"wrong IMAP password", map[string]string{"imap": strings.Replace(good.IMAP, "congo-pw", "wrong", 1)},
			map[string]problem{"imap": loginRefused}, "-imap-password-file"},
		{"wrong SMTP password", map[string]string{"smtp": sys.p.URL("smtp+starttls", "congo", "wrong")},
			map[string]problem{"smtp": loginRefused}, "-smtp-password-file"},
		{"untrusted certificate", map[string]string{"ca-file": ""},
			map[string]problem{"imap": badCert, "smtp": badCert}, "-ca-file"},
		{"database directory missing", map[string]string{"db": filepath.Join(dir, "nowhere", "congo.db")},
			map[string]problem{"db": notWritable}, "directory"},
		{"database is a directory", map[string]string{"db": dir},
			map[string]problem{"db": notWritable}, "database"},
		{"SMTP not there", map[string]string{"smtp": "smtp://127.0.0.1:1"},
			map[string]problem{"smtp": unreachable}, "port"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		err := run(context.Background(), args(tt.change), env(nil), &out, io.Discard)
		got := map[string]problem{}
		var ce *checkError
		if errors.As(err, &ce) {
			for _, r := range ce.failed {
				got[r.part] = r.problem
			}
		} else if err != nil {
			t.Errorf("%s: -check-config = %v, want a check error", tt.name, err)
			continue
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: parts at fault %v, want %v\n%s", tt.name, got, tt.want, out.String())
		}
		for part, p := range tt.want {
			if got[part] != p {
				t.Errorf("%s: %s: %v, want %v\n%s", tt.name, part, got[part], p, out.String())
			}
		}
		if !strings.Contains(out.String(), tt.says) {
			t.Errorf("%s: the report does not say %q:\n%s", tt.name, tt.says, out.String())
		}
		if strings.Contains(out.String(), "congo-pw") || err != nil && strings.Contains(err.Error(), "congo-pw") {
			t.Errorf("%s: the report shows the password:\n%s", tt.name, out.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new.db")); err == nil {
		t.Errorf("-check-config made the database")
	}

	// A database made immutable, as a broken disk would be.
	t.Run("immutable database", func(t *testing.T) {
		if out, err := exec.Command("chattr", "+i", existing).CombinedOutput(); err != nil {
			t.Skipf("chattr +i: %v %s: the file system cannot make files immutable", err, out)
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", existing).Run() })
		var out bytes.Buffer
		err := run(context.Background(), args(map[string]string{"db": existing}), env(nil), &out, io.Discard)
		var ce *checkError
		if !errors.As(err, &ce) || len(ce.failed) != 1 || ce.failed[0].part != "db" || ce.failed[0].problem != notWritable {
			t.Errorf("-check-config with an immutable database = %v, want the database not writable:\n%s", err, out.String())
		}
	})
}
