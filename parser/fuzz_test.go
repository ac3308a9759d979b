package parser

import (
	"strings"
	"testing"

	"github.com/congobymail/congo/rules"
)

// FuzzParse checks that Parse never panics and that what it returns holds
// together: every command comes from the mail and is well formed, and every
// error says what is wrong.
func FuzzParse(f *testing.F) {
	f.Add("move congo 42 b2-b3#1", "Good luck!\n-- \nAlice", int64(0))
	f.Add("Re: Congo game 42: alice vs bob - bob to move", "b2-b3 #4\n\nOn Mon, Bob wrote:\n> hi", int64(0))
	f.Add("", "help\r\nregister alice\r\nchallenge congo bob white\r\ncongo accept #7\r\nresign\r\n", int64(9))
	f.Add("", "challenge congo robot black level=2 days=5\nconditional congo 4\nif c6-c5 then b2-b3 if d6-d5 then c2-c3\nboard congo 4#2\nseek congo bank=5+1 unrated\nvacation 3", int64(0))
	f.Add("Re[2]: [congo] board", "", int64(3))
	f.Add("", "\u00a0move\u00a0congo 42 a2-c4-c6x\n\n-----Original Message-----\nFrom: x", int64(0))
	f.Fuzz(func(t *testing.T, subject, body string, game int64) {
		game = max(game, 0) // the server passes no negative game

		r := Parse(subject, body, Context{Game: game})
		in := func(s string) bool { return strings.Contains(subject, s) || strings.Contains(body, s) }
		if len(r.Commands) > maxCommands {
			t.Errorf("Parse(%q, %q) gave %d commands, want at most %d", subject, body, len(r.Commands), maxCommands)
		}
		if r.FromSubject && len(r.Commands) != 1 {
			t.Errorf("Parse(%q, %q) from the subject gave %d commands, want 1", subject, body, len(r.Commands))
		}
		if !r.FromSubject && r.Message != "" && game == 0 && GameFromSubject(subject) == 0 {
			t.Errorf("Parse(%q, %q) gave message %q in a mail about no game, without a command in the subject", subject, body, r.Message)
		}
		for _, c := range r.Commands {
			if !c.Kind.Valid() {
				t.Errorf("Parse(%q, %q) gave command %+v of no valid kind", subject, body, c)
			}
			if c.Line == "" || !in(c.Line) {
				t.Errorf("Parse(%q, %q) gave command %+v whose line is not in the mail", subject, body, c)
			}
			if c.Line != strings.TrimFunc(c.Line, isSpace) || strings.ContainsAny(c.Line, "\r\n") {
				t.Errorf("Parse(%q, %q) gave command %+v whose line is not one trimmed line", subject, body, c)
			}
			switch c.Kind {
			case Accept, Decline, Board, Resign, Move, Draw, NoDraw, Takeback, Abort, Conditional, If,
				Observe, Unobserve, History:
				if c.Game <= 0 {
					t.Errorf("Parse(%q, %q) gave command %+v with no game", subject, body, c)
				}
			case Register, Challenge:
				if !ValidHandle(c.Handle) {
					t.Errorf("Parse(%q, %q) gave command %+v with an invalid handle", subject, body, c)
				}
			}
			if c.Kind == Move && (!isMove(c.Move) || c.MoveNumber < 0) {
				t.Errorf("Parse(%q, %q) gave move %+v that is not a move", subject, body, c)
			}
			if c.Kind != Move && (c.Move != "" || c.MoveNumber != 0) {
				t.Errorf("Parse(%q, %q) gave %+v with a move", subject, body, c)
			}
			if c.Kind == If && (len(c.Moves) < 2 || len(c.Moves)%2 != 0) {
				t.Errorf("Parse(%q, %q) gave if line %+v without pairs of moves", subject, body, c)
			}
			if c.TimeControl.Days != 0 {
				if tc, ok := ParseTimeControl(c.TimeControl.String()); !ok || tc != c.TimeControl {
					t.Errorf("Parse(%q, %q) gave time control %+v that does not round-trip", subject, body, c.TimeControl)
				}
			}
			if c.Colour > rules.Black {
				t.Errorf("Parse(%q, %q) gave %+v with an invalid colour", subject, body, c)
			}
		}
		for _, e := range r.Errors {
			if e.Problem == NoProblem || !e.Problem.Valid() || e.Reason == "" {
				t.Errorf("Parse(%q, %q) gave error %+v with no problem or reason", subject, body, e)
			}
			if e.Line == "" || !in(strings.TrimSuffix(e.Line, "...")) {
				t.Errorf("Parse(%q, %q) gave error %+v whose line is not in the mail", subject, body, e)
			}
			if len(e.Line) > maxLineLen+len("...") {
				t.Errorf("Parse(%q, %q) gave error line of %d bytes, want at most %d", subject, body, len(e.Line), maxLineLen+3)
			}
		}
	})
}
