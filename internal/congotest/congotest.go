// Package congotest is one world for the tests of every package: a
// settable Clock, a Sink that records the mail it is given to send, a
// database on a real SQLite file with players in it (NewDB), WaitFor for
// what happens in another goroutine, and the loopback mail servers
// (StartMail). It holds no production code and imports no room, nor the
// server, so that the tests of any package may use it; the server's
// world of mail, built on this one, is package server/servertest.
package congotest

import (
	"crypto/sha256"
	"encoding/base32"
	"strings"
	"time"
)

// T0 is when every test world begins: the Clock's first time, and when
// NewDB's players registered.
var T0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// PlayersDomain is the domain of the players' addresses.
const PlayersDomain = "players.example"

// Address is the registered address of the player with the handle:
// handle@players.example.
func Address(handle string) string {
	return handle + "@" + PlayersDomain
}

// Secret is the secret of the personal address NewDB gives the player
// with the handle: 26 lowercase base32 characters, as the server makes
// them, the same in every run.
func Secret(handle string) string {
	sum := sha256.Sum256([]byte("congotest " + handle))
	return strings.ToLower(base32.StdEncoding.EncodeToString(sum[:]))[:26]
}
