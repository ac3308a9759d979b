package main

import (
	"fmt"
	"github.com/congobymail/congo/config"
	"regexp"
	"strings"
	"testing"

	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/rules"
)

// startRobotWorld is startWorld with the robot playing, under its default
// handle.
func startRobotWorld(t *testing.T) *world {
	t.Helper()
	return startWorldTuned(t, func(c *settings) { c.Robot = config.DefaultRobot }, "alice")
}

// position finds the position in a board mail (M3).
var position = regexp.MustCompile(`(?m)^Position: (.+)$`)

// playable returns move when it is legal in the position a board mail
// shows, or else the first legal move.
func playable(t *testing.T, board *mailmsg.Incoming, move string) string {
	t.Helper()
	m := position.FindStringSubmatch(board.Text)
	if m == nil {
		t.Fatalf("no position in %q:\n%s", board.Subject, board.Text)
	}
	pos, err := rules.ParsePosition(strings.TrimSpace(m[1]))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pos.ParseMove(move); err == nil {
		return move
	}
	return pos.Legal()[0].String()
}

// robotReply finds the robot's move in a board mail.
var robotReply = regexp.MustCompile(`(?m)^robot: (\S+) — `)

// TestEndToEndRobot plays the robot by mail: the challenge is accepted at
// once, and each of alice's moves is answered in the next mail she gets,
// which shows both moves.
func TestEndToEndRobot(t *testing.T) {
	w := startRobotWorld(t)
	const server = "congo@example.org"
	alice := "alice@example.org"

	w.send(alice, server, "", "register alice", "")
	welcome := w.expect("alice", 1)[0]
	alicePA := w.replyTo(welcome)

	w.send(alice, alicePA, "Re: "+welcome.Subject, "challenge congo robot level=1", welcome.MessageID)
	board := w.expect("alice", 1)[0]
	wantSubject(t, "start", board, "Congo game 1: alice vs robot")
	wantContains(t, "start", board, "accepted the challenge: the game begins", "level 1 of 5",
		"Position: gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1")

	for i, want := range []string{"b2-b3", "f2-f3", "a2-a3"} {
		move := playable(t, board, want)
		w.send(alice, alicePA, "Re: "+board.Subject, move, board.MessageID)
		board = w.expect("alice", 1)[0]
		what := "after " + move
		wantContains(t, what, board, "You: "+move)
		if robotReply.FindStringSubmatch(board.Text) == nil {
			t.Fatalf("%s: no move of the robot's in:\n%s", what, board.Text)
		}
		if board.Subject != "Congo game 1: alice vs robot" {
			break // the robot's answer ended the game
		}
		wantContains(t, what, board, "It is your move", fmt.Sprintf("#%d", i+2))
	}
	w.expectNothing("alice")
}
