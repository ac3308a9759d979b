package main

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"
)

// TestDemoListensOnLoopbackOnly checks that the demo, whose mail servers
// have no TLS and well-known passwords, refuses to listen where other
// machines reach it, naming the setting at fault.
func TestDemoListensOnLoopbackOnly(t *testing.T) {
	tests := []struct {
		args []string
		key  string
	}{
		{[]string{"-demo-imap", "0.0.0.0:0"}, "demo-imap"},
		{[]string{"-demo-imap", ":0"}, "demo-imap"},
		{[]string{"-demo-smtp", "[::]:0"}, "demo-smtp"},
		{[]string{"-demo-smtp", "192.0.2.1:2525"}, "demo-smtp"},
		{[]string{"-demo-smtp", "mail.example.org:2525"}, "demo-smtp"},
		{[]string{"-http", "0.0.0.0:0"}, "http"},
	}
	for _, tt := range tests {
		args := append([]string{"-demo", "-db", filepath.Join(t.TempDir(), "congo-demo.db"),
			"-demo-imap", "127.0.0.1:0", "-demo-smtp", "127.0.0.1:0"}, tt.args...)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := run(ctx, args, env(nil), io.Discard, io.Discard)
		cancel()
		var se *settingError
		if !errors.As(err, &se) || se.Key != tt.key || !errors.Is(err, errNotLoopback) {
			t.Errorf("run(%q) = %v, want a not-loopback error about %s", args, err, tt.key)
		}
	}
	args := []string{"-demo", "-db", filepath.Join(t.TempDir(), "congo-demo.db"), "-demo-imap", "1143"}
	var se *settingError
	if err := run(context.Background(), args, env(nil), io.Discard, io.Discard); !errors.As(err, &se) || se.Key != "demo-imap" {
		t.Errorf("run(%q) = %v, want an error about demo-imap", args, err)
	}
}
