package parser

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/congobymail/congo/rules"
	"golang.org/x/text/unicode/norm"
)

// FuzzParse checks that Parse never panics and that what it returns holds
// together: every command comes from the mail and is well formed, every
// error says what is wrong, the message is made of lines of the body,
// and in a mail about a game no line is an error unless it was meant as a
// command (M19). digest is the games of Context.Digest, "12,13".
func FuzzParse(f *testing.F) {
	f.Add("move congo 42 b2-b3#1", "Good luck!\n-- \nAlice", int64(0), "")
	f.Add("Re: Congo game 42: alice vs bob - bob to move", "b2-b3 #4\n\nOn Mon, Bob wrote:\n> hi", int64(0), "")
	f.Add("", "help\r\nregister alice\r\nchallenge congo bob white\r\ncongo accept #7\r\nresign\r\n", int64(9), "")
	f.Add("", "challenge congo robot black level=2 days=5\nconditional congo 4\nif c6-c5 then b2-b3 if d6-d5 then c2-c3\nboard congo 4#2\nseek congo bank=5+1 unrated\nvacation 3", int64(0), "")
	f.Add("Re[2]: [congo] board", "", int64(3), "")
	f.Add("", "pause congo 4\nresume\ngive 2d\ngive congo 4 36h\nclaim congo 4\ntimezone Europe/Prague\nweekends pause\nchallenge congo bob timeout=claim", int64(4), "")
	f.Add("", "challenge ladder 4 bob\ntournament new knockout games=3 days=2 Cup\nseek congo rating=1400-1700 days=5\ntournament close 4", int64(0), "")
	f.Add("", "\u00a0move\u00a0congo 42 a2-c4-c6x\n\n-----Original Message-----\nFrom: x", int64(0), "")
	f.Add("", "Hi Bob,\n\nNice move!\n「ｂ２－ｂ３」。\n\nCheers,\n  Alice  \n\nSent from my iPhone", int64(42), "")
	f.Add("", "I think c3xd4 is best, what about b2ーb3?", int64(42), "")
	f.Add("", "Bold. My move: d2-e3\ndraw?\nI resign, well played.\n投了します。\nVzdávám.", int64(42), "")
	f.Add("", "Hi bob!\nchallenge congo bob rated\nMůj tah: e6-e5 anyway\nčesky\nguard off\ntournament 3 add robot level=2", int64(0), "")
	f.Add("", "12: b2-b3!\ngame 13 c3xd4\n#14 d2-d3 #2\n\nThanks", int64(0), "12,13")
	f.Add("", "b2-b3\n\n差出人: Congo <congo@example.org>\n送信日時: 2025年3月1日 12:00\n", int64(42), "")
	f.Add("Re: Congo game 42: alice vs bob - bob to move", "b6-b5\n\nGame 42: alice (white) vs bob (black)\n   a b c d e f g\n7  g m|e l e|c z  7\nPosition: 7/7/7/7/7/7/7 b 1\n", int64(0), "42")
	f.Add("", "note congo 4 plan: c5\nnotes congo 4\nif c3xd4 then resign if b6-b5 then draw\npreview congo 4 b2-b3, b6-b5\nchallenge congo bob position=\"3l3/7/7/7/7/7/3L3 b 12\" days=2", int64(0), "")
	f.Add("move congo 4 b2-b3", "Luck!\nnote secret\nif c6-c5 then draw", int64(0), "")
	f.Fuzz(func(t *testing.T, subject, body string, game int64, digest string) {
		game = max(game, 0) // the server passes no negative game
		ctx := Context{Game: game, Digest: digestGames(digest)}

		r := Parse(subject, body, ctx)
		in := func(s string) bool { return strings.Contains(subject, s) || strings.Contains(body, s) }
		inGame := game != 0 || GameFromSubject(subject) != 0
		if len(r.Commands) > maxCommands {
			t.Errorf("Parse(%q, %q) gave %d commands, want at most %d", subject, body, len(r.Commands), maxCommands)
		}
		if r.FromSubject && len(r.Commands) != 1 {
			t.Errorf("Parse(%q, %q) from the subject gave %d commands, want 1", subject, body, len(r.Commands))
		}
		for _, c := range r.Commands {
			checkCommand(t, subject, body, c, in)
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
			if e.Problem == EmbeddedMove && (!inGame || r.FromSubject || len(r.Errors) != 1 || len(r.Commands) != 0 || r.Message != "") {
				t.Errorf("Parse(%q, %q) = %+v: an embedded move is the one error of a mail about a game with no command and no message", subject, body, r)
			}
			if inGame && !r.FromSubject && !meantAsCommand(e, subject, ctx) {
				t.Errorf("Parse(%q, %q) in a mail about a game gave error %+v for a line that is no command", subject, body, e)
			}
		}
		for _, h := range r.Hints {
			if h.Problem != InWords && h.Problem != EmbeddedMove || h.Reason == "" || !inGame {
				t.Errorf("Parse(%q, %q) gave hint %+v: want one of a game action in words or a move in a sentence, in a mail about a game", subject, body, h)
			}
			if h.Line == "" || !in(strings.TrimSuffix(h.Line, "...")) {
				t.Errorf("Parse(%q, %q) gave hint %+v whose line is not in the mail", subject, body, h)
			}
		}
		checkMessage(t, subject, body, r, inGame)
	})
}

// checkCommand checks that c is well formed and comes from the mail.
func checkCommand(t *testing.T, subject, body string, c Command, in func(string) bool) {
	t.Helper()
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
		Observe, Unobserve, History, Pause, Give, Claim, Resume:
		if c.Game <= 0 {
			t.Errorf("Parse(%q, %q) gave command %+v with no game", subject, body, c)
		}
	}
	if want := kindArgs[c.Kind]; reflect.TypeOf(c.Args) != reflect.TypeOf(want) {
		t.Errorf("Parse(%q, %q) gave command %+v with arguments %T, want %T", subject, body, c, c.Args, want)
	}
	var control TimeControl
	switch a := c.Args.(type) {
	case RegisterArgs:
		if !ValidHandle(a.Handle) {
			t.Errorf("Parse(%q, %q) gave command %+v with an invalid handle", subject, body, c)
		}
	case RenameArgs:
		if !ValidHandle(a.Handle) {
			t.Errorf("Parse(%q, %q) gave command %+v with an invalid handle", subject, body, c)
		}
	case ChallengeArgs:
		if !ValidHandle(a.Handle) {
			t.Errorf("Parse(%q, %q) gave command %+v with an invalid handle", subject, body, c)
		}
		if a.Color > rules.Black {
			t.Errorf("Parse(%q, %q) gave %+v with an invalid color", subject, body, c)
		}
		if a.Position != "" {
			if _, err := rules.ParsePosition(a.Position); err != nil {
				if pe, ok := errors.AsType[*rules.PositionError](err); !ok || !ruleFlaw(pe.Flaw) {
					t.Errorf("Parse(%q, %q) gave %+v with a position not written as R21 says: %v", subject, body, c, err)
				}
			}
		}
		control = a.Control
	case GiveArgs:
		if a.Hours < 1 || a.Hours > MaxGiveHours {
			t.Errorf("Parse(%q, %q) gave %+v, an amount of time that cannot be given", subject, body, c)
		}
	case MoveArgs:
		if !isMove(a.Move) || a.Number < 0 {
			t.Errorf("Parse(%q, %q) gave move %+v that is not a move", subject, body, c)
		}
	case IfArgs:
		if len(a.Moves) < 2 || len(a.Moves)%2 != 0 {
			t.Errorf("Parse(%q, %q) gave if line %+v without pairs of moves", subject, body, c)
		}
		for i, m := range a.Moves {
			if (m == ThenResign || m == ThenDraw) && i != len(a.Moves)-1 || m != ThenResign && m != ThenDraw && !isMove(m) {
				t.Errorf("Parse(%q, %q) gave if line %+v with %q, which is no move nor its last resign or draw", subject, body, c, m)
			}
		}
	case NoteArgs:
		if a.Text == "" || c.Game == 0 {
			t.Errorf("Parse(%q, %q) gave note %+v without its text or game", subject, body, c)
		}
	case PreviewArgs:
		if len(a.Moves) == 0 || len(a.Moves) > maxPreview {
			t.Errorf("Parse(%q, %q) gave preview %+v of %d moves", subject, body, c, len(a.Moves))
		}
		for _, m := range a.Moves {
			if !isMove(m) {
				t.Errorf("Parse(%q, %q) gave preview %+v with %q, which is no move", subject, body, c, m)
			}
		}
	case SeekArgs:
		control = a.Control
		if a.RatingLow < 0 || a.RatingLow > a.RatingHigh || a.RatingHigh > MaxRating || a.RatingHigh == 0 && a.RatingLow != 0 {
			t.Errorf("Parse(%q, %q) gave seek %+v with a range that is none", subject, body, c)
		}
	case LadderChallengeArgs:
		if !ValidHandle(a.Handle) || a.Tournament <= 0 {
			t.Errorf("Parse(%q, %q) gave command %+v with an invalid handle or ladder", subject, body, c)
		}
	case TournamentNewArgs:
		control = a.Control
	}
	if control.Days != 0 {
		if tc, ok := ParseTimeControl(control.String()); !ok || tc != control {
			t.Errorf("Parse(%q, %q) gave time control %+v that does not round-trip", subject, body, control)
		}
	}
}

// kindArgs is the type of the arguments of each kind of command that has
// any: a value of it, the zero value.
var kindArgs = map[Kind]Args{
	Register: RegisterArgs{}, Rename: RenameArgs{}, Challenge: ChallengeArgs{}, Move: MoveArgs{}, Board: BoardArgs{}, Games: GamesArgs{},
	Conditional: ConditionalArgs{}, If: IfArgs{}, Note: NoteArgs{}, Preview: PreviewArgs{}, Seek: SeekArgs{}, Notify: NotifyArgs{}, Vacation: VacationArgs{},
	Language: LanguageArgs{}, Guard: GuardArgs{}, Tournament: TournamentArgs{}, TournamentNew: TournamentNewArgs{},
	TournamentStart: TournamentArgs{}, TournamentCancel: TournamentArgs{}, TournamentKick: KickArgs{}, TournamentAdd: TournamentAddArgs{},
	TournamentClose: TournamentArgs{}, LadderChallenge: LadderChallengeArgs{},
	Join: TournamentArgs{}, Leave: TournamentArgs{}, Ban: BanArgs{}, Unban: BanArgs{}, Adjudicate: AdjudicateArgs{},
	Give: GiveArgs{}, Timezone: TimezoneArgs{}, Weekends: WeekendsArgs{},
}

// checkMessage checks that r.Message is made of lines of the body, as
// M19 says.
func checkMessage(t *testing.T, subject, body string, r Result, inGame bool) {
	t.Helper()
	m := r.Message
	if m == "" {
		return
	}
	if !r.FromSubject && !inGame && !challenged(r.Commands) {
		t.Errorf("Parse(%q, %q) gave message %q in a mail about no game and no command in the subject, nor a challenge", subject, body, m)
	}
	if len(m) > maxComment || strings.Count(m, "\n")+1 > maxLines {
		t.Errorf("Parse(%q, %q) gave a message of %d bytes, %d lines", subject, body, len(m), strings.Count(m, "\n")+1)
	}
	if strings.Contains(m, "\r") {
		t.Errorf("Parse(%q, %q) gave message %q with a CR", subject, body, m)
	}
	lines := map[string]bool{}
	for rest := body; rest != ""; {
		var line string
		line, rest = nextLine(rest)
		lines[strings.TrimRightFunc(line, isSpace)] = true
	}
	blank := true // the line before was empty, or there is none
	for line := range strings.SplitSeq(m, "\n") {
		if line == "" {
			if blank && !r.FromSubject {
				t.Errorf("Parse(%q, %q) gave message %q with an empty line at the start or after another", subject, body, m)
			}
			blank = true
			continue
		}
		blank = false
		if r.FromSubject {
			if !strings.Contains(body, line) {
				t.Errorf("Parse(%q, %q) gave message line %q that is not in the body", subject, body, line)
			}
			continue
		}
		if !lines[line] {
			t.Errorf("Parse(%q, %q) gave message line %q that is no line of the body", subject, body, line)
		}
		if text := normalise(strings.TrimFunc(line, isSpace)); text == "" || text[0] == '>' || text == "--" {
			t.Errorf("Parse(%q, %q) gave message line %q, a blank, quoted or signature line", subject, body, line)
		}
	}
	if blank && !r.FromSubject {
		t.Errorf("Parse(%q, %q) gave message %q that ends with an empty line", subject, body, m)
	}
}

// meantAsCommand reports whether an error may be reported in a mail about
// a game (M19): the line starts with a command word (read after NFKC), or
// it is a move alone or a digest line with a bad #N, or a move in a game
// not in the digest, or the error is about the mail (EmbeddedMove,
// NotRead, Ignored) or its Subject.
func meantAsCommand(e Error, subject string, ctx Context) bool {
	switch {
	case e.Problem == EmbeddedMove, e.Problem == NotRead, e.Problem == Ignored,
		e.Problem == NotInDigest && ctx.Digest != nil,
		e.Problem == BadMoveNumber && strings.Contains(norm.NFKC.String(e.Line), "#"):
		return true
	}
	if e.Line == cut(stripSubject(subject), maxLineLen) {
		return true
	}
	words := strings.FieldsFunc(norm.NFKC.String(e.Line), isSpace)
	if len(words) > 1 && isGameWord(words[0]) {
		words = words[1:]
	}
	return len(words) > 0 && keyword(words[0]) != NoKind && !keyword(words[0]).Operator()
}

// digestGames reads the games of a digest for FuzzParse: numbers
// separated by commas, those that are no game number left out; nil for
// "".
func digestGames(s string) []int64 {
	if s == "" {
		return nil
	}
	games := []int64{}
	for w := range strings.SplitSeq(s, ",") {
		if id, ok := parseID(w); ok {
			games = append(games, id)
		}
	}
	return games
}
