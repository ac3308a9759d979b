package mailer

import (
	"bytes"
	"io"
	"net"
	"testing"
)

// TestReadHookHoldsWrites: what is written goes to the peer in one write
// when the next Read comes, before the function armed runs; past maxHeld
// it goes at once.
func TestReadHookHoldsWrites(t *testing.T) {
	client, server := net.Pipe() // each Write is one Read of the peer's
	defer client.Close()
	defer server.Close()
	c := &readHook{Conn: client}
	got := make(chan []byte, 10)
	go func() {
		buf := make([]byte, 1<<20)
		for {
			n, err := server.Read(buf)
			if err != nil {
				close(got)
				return
			}
			got <- bytes.Clone(buf[:n])
			if bytes.HasSuffix(buf[:n], []byte(".\r\n")) {
				server.Write([]byte("250 ok\r\n"))
			}
		}
	}()
	for _, part := range []string{"Subject: x\r\n\r\n", "board\r\n", ".\r\n"} {
		if _, err := io.WriteString(c, part); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 0 {
		t.Fatalf("%d writes reached the server before the client read", len(got))
	}
	handed := false
	f := func() {
		handed = true
		if len(c.held) != 0 { // net.Pipe's Write returned: the server has it
			t.Errorf("the function ran before the mail was sent")
		}
	}
	c.before.Store(&f)
	answer := make([]byte, 64)
	n, err := c.Read(answer)
	if err != nil || string(answer[:n]) != "250 ok\r\n" {
		t.Fatalf("Read = %q, %v", answer[:n], err)
	}
	if w := <-got; string(w) != "Subject: x\r\n\r\nboard\r\n.\r\n" {
		t.Errorf("the server read %q, want the three writes as one", w)
	}
	if !handed {
		t.Error("the function armed did not run")
	}
	big := bytes.Repeat([]byte("x"), maxHeld+1)
	done := make(chan error, 1)
	go func() { _, err := c.Write(big); done <- err }()
	if w := <-got; len(w) == 0 {
		t.Error("a write past maxHeld was held")
	}
	<-done
}
