package parser

import (
	"reflect"
	"strings"
	"testing"

	"github.com/congobymail/congo/rules"
)

// TestParsePlaying reads the forms of M68-M72: notes, conditional
// resign and draw, previews and challenges from a position.
func TestParsePlaying(t *testing.T) {
	t.Parallel()
	const start = rules.StartPosition
	tests := []struct {
		line string
		game int64 // Context.Game
		want Command
	}{
		// M68: a note is kept as written, after its command word, or
		// after "congo <id>".
		{"note congo 42 Push the c-pawn, then castle the lion", 0, Command{Kind: Note, Game: 42, Args: NoteArgs{Text: "Push the c-pawn, then castle the lion"}}},
		{"congo note 42 plan: c5", 0, Command{Kind: Note, Game: 42, Args: NoteArgs{Text: "plan: c5"}}},
		{"Note congo #7 ｃ５を狙う", 42, Command{Kind: Note, Game: 7, Args: NoteArgs{Text: "ｃ５を狙う"}}},
		{"note his monkey is loose", 42, Command{Kind: Note, Game: 42, Args: NoteArgs{Text: "his monkey is loose"}}},
		{"note 12 pawns left", 42, Command{Kind: Note, Game: 42, Args: NoteArgs{Text: "12 pawns left"}}},
		{"note congo is hard", 42, Command{Kind: Note, Game: 42, Args: NoteArgs{Text: "congo is hard"}}},
		{"note   two  spaces  stay", 42, Command{Kind: Note, Game: 42, Args: NoteArgs{Text: "two  spaces  stay"}}},
		{"note " + strings.Repeat("x", 900), 42, Command{Kind: Note, Game: 42, Args: NoteArgs{Text: strings.Repeat("x", 900)}}},
		{"notes congo 42", 0, Command{Kind: Notes, Game: 42}},
		{"notes 42", 0, Command{Kind: Notes, Game: 42}},
		{"notes", 42, Command{Kind: Notes, Game: 42}},

		// M69.
		{"if c3xd4 then resign", 42, Command{Kind: If, Game: 42, Args: IfArgs{Moves: []string{"c3xd4", ThenResign}}}},
		{"if b6-b5 then DRAW", 42, Command{Kind: If, Game: 42, Args: IfArgs{Moves: []string{"b6-b5", ThenDraw}}}},
		{"if c6-c5 then b2-b3 if d6-d5 then resign", 42, Command{Kind: If, Game: 42,
			Args: IfArgs{Moves: []string{"c6-c5", "b2-b3", "d6-d5", ThenResign}}}},

		// M70.
		{"preview congo 42 b2-b3 b6-b5 c2-c3", 0, Command{Kind: Preview, Game: 42, Args: PreviewArgs{Moves: []string{"b2-b3", "b6-b5", "c2-c3"}}}},
		{"preview 42 b2-b3, b6-b5", 0, Command{Kind: Preview, Game: 42, Args: PreviewArgs{Moves: []string{"b2-b3", "b6-b5"}}}},
		{"preview b2xb3", 42, Command{Kind: Preview, Game: 42, Args: PreviewArgs{Moves: []string{"b2xb3"}}}},
		{"congo preview #7 c3\u00d7d4", 42, Command{Kind: Preview, Game: 7, Args: PreviewArgs{Moves: []string{"c3xd4"}}}},

		// M72: the position's three fields; its number may be left out,
		// and it may be quoted. A position that breaks the rules (here a
		// lion outside its castle) is the server's to refuse.
		{"challenge congo bob position=" + start, 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob", Position: start}}},
		{"challenge congo bob black position=3l3/7/7/7/7/7/3L3 B 12 days=5", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob",
			Color: rules.Black, Control: TimeControl{Days: 5}, Position: "3l3/7/7/7/7/7/3L3 b 12"}}},
		{`challenge congo robot Position="3l3/7/7/7/7/7/3L3 w 3" level=2`, 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "robot",
			Level: 2, Position: "3l3/7/7/7/7/7/3L3 w 3"}}},
		{"challenge congo bob position=3l3/7/7/7/7/7/3L3 w unrated", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob",
			Unrated: true, Position: "3l3/7/7/7/7/7/3L3 w 1"}}},
		{"challenge congo bob position=l6/7/7/7/7/7/3L3 w 1", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob",
			Position: "l6/7/7/7/7/7/3L3 w 1"}}},
	}
	for _, tt := range tests {
		got := Parse("", tt.line, Context{Game: tt.game})
		want := tt.want
		want.Line = strings.TrimFunc(tt.line, isSpace)
		if len(got.Commands) != 1 || len(got.Errors) != 0 || !reflect.DeepEqual(got.Commands[0], want) {
			t.Errorf("Parse(%q, game %d) = %+v, want one command %+v", tt.line, tt.game, got, want)
		}
		if got.Message != "" {
			t.Errorf("Parse(%q, game %d) passes on %q as a message", tt.line, tt.game, got.Message)
		}
	}
}

// TestParsePlayingErrors: the forms of M68-M72 written wrong are
// answered, never passed on.
func TestParsePlayingErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		game int64 // Context.Game
		want Problem
	}{
		{"note my plan", 0, MissingGame},
		{"note congo 42", 0, MissingText},
		{"note congo 42    ", 0, MissingText},
		{"note " + strings.Repeat("x", maxNote), 42, LongLine},
		{"notes", 0, MissingGame},
		{"notes congo #x", 0, BadGame},
		{"if c3xd4 then resign if d6-d5 then c2-c3", 42, BadConditional},
		{"if resign then c2-c3", 42, BadConditional},
		{"if c3xd4 then resign draw", 42, BadConditional},
		{"if c3xd4 then b2-b3 if draw then resign", 42, BadConditional},
		{"preview b2-b3", 0, MissingGame},
		{"preview congo 42 b2-b3 b6-b9", 0, BadMove},
		{"preview congo 42x b2-b3", 0, BadGame},
		{"preview congo 42 " + strings.Repeat("b2-b3 ", maxPreview+1), 0, ExtraWords},
		{"challenge congo bob position=start", 0, BadPosition},
		{"challenge congo bob position=3l3/7/7/7/7/7/3L3", 0, BadPosition},
		{"challenge congo bob position=3l3/7/7/7/7/3L3 w 1", 0, BadPosition},
		{"challenge congo bob position=3l3/7/7/7/7/7/3X3 w 1", 0, BadPosition},
		{"challenge congo bob position=3l3/7/7/7/7/7/3L3 x 1", 0, BadPosition},
		{"challenge congo bob position=3l3/7/7/7/7/7/3L3 w 1 position=3l3/7/7/7/7/7/3L3 b 1", 0, ExtraWords},
		{"seek congo position=3l3/7/7/7/7/7/3L3 w 1", 0, BadTimeControl},
	}
	for _, tt := range tests {
		got := Parse("", tt.line, Context{Game: tt.game})
		if len(got.Commands) != 0 || len(got.Errors) != 1 {
			t.Errorf("Parse(%q, game %d) = %+v, want one error", tt.line, tt.game, got)
			continue
		}
		if e := got.Errors[0]; e.Problem != tt.want || e.Reason == "" {
			t.Errorf("Parse(%q, game %d) problem = %v (%s), want %v", tt.line, tt.game, e.Problem, e.Reason, tt.want)
		}
		if got.Message != "" {
			t.Errorf("Parse(%q, game %d) passes on %q as a message", tt.line, tt.game, got.Message)
		}
	}
}

// TestPlayingWordsInAMessage: lines that start with the new command words
// but are no command stay the message (M19).
func TestPlayingWordsInAMessage(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"Notes from the club night: fun.", "Note", "Preview of the cup: soon", "preview"} {
		got := Parse("", line, Context{Game: 42})
		if len(got.Commands) != 0 || len(got.Errors) != 0 || got.Message != line {
			t.Errorf("Parse(%q, game 42) = %+v, want it the message", line, got)
		}
	}
}

// TestPrivateLinesNotRelayed: with a command in the Subject, the body is
// the message (M19), but a note or a conditional line in it is neither
// carried out nor passed on, and the sender is told.
func TestPrivateLinesNotRelayed(t *testing.T) {
	t.Parallel()
	got := Parse("move congo 42 b2-b3", "Good luck!\nnote his lion is weak on d7\nif c6-c5 then resign\n\nSee you.", Context{})
	if got.Message != "Good luck!\n\nSee you." {
		t.Errorf("message = %q, want the words without the note and the conditional line", got.Message)
	}
	var lines []string
	for _, e := range got.Errors {
		if e.Problem != NotRead {
			t.Errorf("error %+v, want NotRead", e)
		}
		lines = append(lines, e.Line)
	}
	if want := []string{"note his lion is weak on d7", "if c6-c5 then resign"}; !reflect.DeepEqual(lines, want) {
		t.Errorf("errors name %q, want %q", lines, want)
	}
	if len(got.Commands) != 1 || got.Commands[0].Kind != Move {
		t.Errorf("commands = %+v, want the Subject's move", got.Commands)
	}
}
