package parser

import (
	"strings"
)

const (
	// maxCommands is the most commands read from one mail.
	maxCommands = 50
	// maxLines is the most lines of a body read for commands or for a
	// message, counting blank ones.
	maxLines = 200
	// maxComment is the most bytes of a message passed on.
	maxComment = 16 << 10
)

// Parse reads the commands of a mail, and the sender's message to the
// opponent (Result.Message).
//
// When the Subject, after any reply prefixes ("Re:", "Fwd:", "AW:", ...) and
// "[...]" tags, is a command, that is the mail's one command and the body is
// the message (FromSubject); a command in it is not carried out, and the
// first one is reported as an Error with Problem NotRead.
//
// Otherwise the body is read line by line, down to where the sender's
// text ends: a signature ("-- "), a quoted line ("> "), an attribution
// ("On ... wrote:", and its like in other languages), a separator
// ("-----Original Message-----"), a quoted header block ("From:",
// "Von:", "差出人:", ...), a sign-off ("Sent from my iPhone"), or a line
// that repeats a fixed line of the server's own mails (a board rank,
// "Position: ...", the footer; M21), so that a mail pasted below without
// quote marks is not read. Each line is read after Unicode NFKC (M21). A
// line is a command when its first word is a command word, in either
// word order (move congo 42 b2-b3, congo move 42 b2-b3), or it is a move
// alone, which may carry what people add to it (M20: "b2-b3.", "b2-b3!?",
// "(b2-b3)", "「b2-b3」", "Move: b2-b3", "I play b2-b3", ...), or, in a
// reply to a digest (Context.Digest), a line "<id>: <move>" (M24).
//
// In a mail about a game (ctx.Game, or else the game in a "Congo game N"
// Subject), the other lines are the message to the opponent (M19), never
// Errors; a bare move or a game command without a game number applies
// to that game. But when such a mail has no command at all and a move
// stands inside a line of words ("I think b2-b3 is best"), nothing is
// played or relayed: the Result is one Error with Problem EmbeddedMove,
// which shows how to write the move alone on a line. A line of the
// message that asks in words for a game action ("I resign", "draw?"),
// and a move in a sentence beside other commands but no move, are
// Hints (M58): nothing is done for them, and the answer says so first.
//
// In a mail about no game whose one command about a game is a
// challenge, the lines of words are the message to the player
// challenged.
//
// In a mail about no game, blank lines and lines of only punctuation are
// skipped, and every other line that is no command is an Error. When the
// body holds nothing to read and the Subject starts like a command but
// is malformed, the Subject's Error is reported.
//
// Conditional lines ("if ... then ...") apply to the game of the
// "conditional congo <id>" line above them, if any, or else to the game
// the mail is about (M14).
//
// At most 50 commands, 200 lines, and a message of 16 KiB are read; a
// line beyond is reported as one Error with Problem Ignored. Parse judges
// only the form of commands: legality, game numbers and handles are the
// server's to check.
func Parse(subject, body string, ctx Context) Result {
	sc := scope{game: ctx.Game, digest: ctx.Digest, operator: ctx.Operator}
	if sc.game == 0 {
		sc.game = GameFromSubject(subject)
	}
	var subjectErr *Error
	if s := stripSubject(subject); s != "" {
		subj := sc
		subj.operator = false // the operator's commands are read in the body only
		c, e, _ := parseLine(s, normalise(s), subj)
		if c.Kind != NoKind {
			message, errs := commentOf(body)
			message, private := withoutPrivate(message, c, sc)
			if e, ok := commandIn(message, c, sc); ok {
				errs = append([]Error{e}, errs...)
			}
			var said words
			if sc.game != 0 || c.Game != 0 {
				for line := range strings.Lines(message) {
					line = strings.TrimFunc(line, isSpace)
					said.add(line, normalise(line))
				}
			}
			errs = append(errs, private...)
			return Result{Commands: []Command{c}, Errors: errs, Hints: said.hints, Message: message, FromSubject: true, CommandSubject: true}
		}
		if e.Problem != UnknownCommand && e.Problem != LongLine {
			subjectErr = &e
		}
	}
	r := parseBody(body, sc)
	r.CommandSubject = subjectErr != nil
	if subjectErr != nil && len(r.Commands) == 0 && len(r.Errors) == 0 {
		r.Errors = []Error{*subjectErr}
	}
	return r
}

// commandIn returns an Error for the first line of message that is a
// command other than subject, the Subject's command: it is not carried
// out, which its sender should be told. Bare moves and game commands
// without a number count for the Subject's game.
func commandIn(message string, subject Command, sc scope) (Error, bool) {
	if subject.Game != 0 {
		sc.game = subject.Game
	}
	for line := range strings.Lines(message) {
		line = strings.TrimFunc(line, isSpace)
		if line == "" {
			continue
		}
		c, _, _ := parseLine(line, normalise(line), sc)
		same := c.Kind == subject.Kind && c.Game == subject.Game && named(c) == named(subject)
		if c.Kind != NoKind && c.Kind != If && !same {
			return lineError(line, NotRead, "Not carried out: with a command in the Subject, the body is read as a message, not as commands."+
				" To send several commands, write them in the body, one a line, under a Subject that is no command."), true
		}
	}
	return Error{}, false
}

// withoutPrivate returns message, the body of a mail whose command is the
// Subject, without its lines that are for the sender alone: notes (M68)
// and conditional lines (M14), which are neither carried out nor passed
// on to the opponent; an Error NotRead says so for each.
func withoutPrivate(message string, subject Command, sc scope) (string, []Error) {
	if subject.Game != 0 {
		sc.game = subject.Game
	}
	var kept []string
	var errs []Error
	for line := range strings.Lines(message) {
		line = strings.TrimRightFunc(line, isSpace)
		text := strings.TrimLeftFunc(line, isSpace)
		if text != "" {
			if c, _, _ := parseLine(text, normalise(text), sc); c.Kind == Note || c.Kind == If {
				errs = append(errs, lineError(text, NotRead, "Not kept, and not passed on: with a command in the Subject, the body is read as a message."+
					" Notes and conditional lines are for you alone: send them in the body, under a Subject that is no command."))
				continue
			}
		}
		kept = append(kept, line)
	}
	if errs == nil {
		return message, nil
	}
	return strings.TrimFunc(strings.Join(kept, "\n"), isSpace), errs
}

// named returns the move or the handle that c names, as written, for
// commandIn: "" for a command that names none.
func named(c Command) string {
	switch a := c.Args.(type) {
	case MoveArgs:
		return a.Move
	case RegisterArgs:
		return a.Handle
	case ChallengeArgs:
		return a.Handle
	case GamesArgs:
		return a.Handle
	case KickArgs:
		return a.Handle
	case LadderChallengeArgs:
		return a.Handle
	case BanArgs:
		return a.Handle
	}
	return ""
}

// parseBody reads the commands of a body, one a line, and in a mail
// about a game (sc.game) its message.
func parseBody(body string, sc scope) Result {
	var r Result
	inGame := sc.game != 0
	var msg message
	var embedded Error // the first move inside a line of words (M20)
	embeddedAt := -1   // its place among the hints
	var said words     // the game actions asked for in words (M58)
	meant := false     // a line was meant as a command
	cond := int64(0)   // the game of the last "conditional congo <id>" line (M14)
	// In a mail about no game, the lines that are no command are the
	// message to the player challenged, when its one game command is a
	// challenge (loose: the indexes of their Errors).
	var loose []int
	looseFull := false
	ignore := func(line, format string, args ...any) {
		r.Errors = append(r.Errors, lineError(line, Ignored, format, args...))
	}
	afterBlank := true
	rest := body
	for n := 0; rest != ""; n++ {
		var raw string
		raw, rest = nextLine(rest)
		raw = strings.TrimRightFunc(raw, isSpace)
		line := strings.TrimLeftFunc(raw, isSpace)
		text := normalise(line)
		class := classify(text, afterBlank, rest)
		if class == stopLine {
			break
		}
		afterBlank = class == skipLine
		if class == skipLine && (text == "" || !inGame) {
			msg.blank(text == "")
			continue
		}
		if n >= maxLines {
			ignore(line, "only the first %d lines of a mail are read: this line and the rest were ignored", maxLines)
			break
		}
		var c Command
		var e Error
		isCommand := false
		if class == textLine {
			if len(r.Commands) == maxCommands {
				ignore(line, "at most %d commands are read from one mail: this line and the rest were ignored", maxCommands)
				break
			}
			g := sc.game
			if cond != 0 && startsWithIf(text) {
				g = cond
			}
			c, e, isCommand = parseLine(line, text, scope{game: g, digest: sc.digest, operator: sc.operator})
		}
		if inGame && !isCommand {
			if embedded.Problem == NoProblem {
				if embedded = embeddedMove(line, text); embedded.Problem != NoProblem {
					embeddedAt = len(said.hints)
				}
			}
			said.add(line, text)
			if !msg.add(raw) {
				ignore(line, "the message is too long (at most %d lines or %d bytes): this line and the rest were not read", maxLines, maxComment)
				break
			}
			continue
		}
		meant = true
		if c.Kind == Conditional && !c.Args.(ConditionalArgs).Clear {
			cond = c.Game
		}
		switch {
		case c.Kind != NoKind:
			r.Commands = append(r.Commands, c)
		case e.Problem == UnknownCommand && !isCommand:
			h := hint(line, text, sc, e)
			if h.Format == e.Format && !looseFull { // words, with nothing to say of them
				if looseFull = !msg.add(raw); !looseFull {
					loose = append(loose, len(r.Errors))
				}
			}
			r.Errors = append(r.Errors, h)
		default:
			r.Errors = append(r.Errors, e)
		}
	}
	if !inGame {
		if challenged(r.Commands) && len(loose) > 0 {
			r.Message = msg.String()
			r.Errors = dropErrors(r.Errors, loose)
		}
		return r
	}
	if !meant && embedded.Problem != NoProblem {
		return Result{Errors: []Error{embedded}, Hints: said.hints}
	}
	if embedded.Problem != NoProblem && !moves(r.Commands, sc.game) {
		// A move in a sentence, beside other commands (M58): it was not
		// played, which the answer says where the line stood.
		embedded.Problem = EmbeddedMove
		said.hints = append(said.hints[:embeddedAt], append([]Error{embedded}, said.hints[embeddedAt:]...)...)
	}
	r.Hints = said.hints
	r.Message = msg.String()
	return r
}

// challenged reports whether the one game command of commands is a
// challenge, beside others about no game: the mail's other lines are
// then the message to the player challenged (M19).
func challenged(commands []Command) bool {
	n := 0
	for _, c := range commands {
		switch {
		case c.Kind == Challenge:
			n++
		case c.Game != 0 || isGameCommand(c.Kind):
			return false
		}
	}
	return n == 1
}

// dropErrors returns errs without those at the indexes drop, which are
// in order.
func dropErrors(errs []Error, drop []int) []Error {
	out := errs[:0:0]
	for i, e := range errs {
		if len(drop) > 0 && drop[0] == i {
			drop = drop[1:]
			continue
		}
		out = append(out, e)
	}
	return out
}

// moves reports whether commands play a move in game.
func moves(commands []Command, game int64) bool {
	for _, c := range commands {
		if c.Kind == Move && c.Game == game {
			return true
		}
	}
	return false
}

// maxHints is the most game actions in words a mail is answered about.
const maxHints = 5

// words gathers the game actions a message asks for in words (M58): a
// hint for each, once.
type words struct {
	hints []Error
	seen  map[string]bool
}

// add reads one line of a message.
func (w *words) add(line, text string) {
	if len(w.hints) >= maxHints {
		return
	}
	h, ok := inWords(line, text)
	if !ok || w.seen[h.Format] {
		return
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	w.seen[h.Format] = true
	w.hints = append(w.hints, h)
}

// embeddedMove returns the EmbeddedMove Error for a line of a mail about
// a game that is no command but holds a move: a move inside other words
// ("I think b2-b3 is best"), or a line that is alone what moveHint
// guesses a move from ("b2->b3", "b2 to b3"). Without a move, it returns
// an Error with no Problem.
func embeddedMove(line, text string) Error {
	if len(line) <= maxNormLen {
		if t, _, _ := splitMoveNumber(undecorate(text)); t != "" {
			if m, ok := moveHint(t); ok {
				return lineError(line, EmbeddedMove, "%s was not played: a move is written as its squares joined by - or x. To play it, reply with just: %s", quote(t), m)
			}
		}
	}
	if token, m, ok := findMove(text); ok {
		return lineError(line, EmbeddedMove, "%s was not played: a move must stand alone on its line. To play it, reply with just: %s", quote(token), m)
	}
	return Error{}
}

// message gathers the lines of a message to the opponent (M19).
type message struct {
	lines   []string // "" for a paragraph break
	size    int      // the bytes of the lines joined by "\n"
	pending bool     // a blank line came since the last line
}

// blank records a line that is blank (or, if empty is false, one that
// adds nothing: there is none).
func (m *message) blank(empty bool) {
	if empty && len(m.lines) > 0 {
		m.pending = true
	}
}

// add appends line, as written, trimmed of trailing space. It reports
// false, adding nothing, when the message would be longer than maxLines
// lines or maxComment bytes.
func (m *message) add(line string) bool {
	n, size := 1, len(line)
	if m.pending {
		n, size = 2, size+1
	}
	if len(m.lines) > 0 {
		size++
	}
	if len(m.lines)+n > maxLines || m.size+size > maxComment {
		return false
	}
	if m.pending {
		m.lines = append(m.lines, "")
		m.pending = false
	}
	m.lines = append(m.lines, line)
	m.size += size
	return true
}

// String returns the message: its lines joined by "\n", without the
// rules of dashes or underscores that mail programs draw above an old
// mail at its end.
func (m *message) String() string {
	lines := m.lines
	for len(lines) > 0 && (lines[len(lines)-1] == "" || isRule(strings.TrimFunc(lines[len(lines)-1], isSpace))) {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// CutBody splits a mail body where Parse stops reading it: read is the
// text above the first signature ("-- "), quoted line ("> "), attribution
// ("On ... wrote:"), separator ("-----Original Message-----"), forwarded
// header block, sign-off or line of the server's own mails; rest is that
// line and all below it, or "" when there is none. read+rest is body.
func CutBody(body string) (read, rest string) {
	afterBlank := true
	for left := body; left != ""; {
		line, next := nextLine(left)
		switch classify(normalise(strings.TrimFunc(line, isSpace)), afterBlank, next) {
		case stopLine:
			at := len(body) - len(left)
			return body[:at], body[at:]
		case skipLine:
			afterBlank = true
		default:
			afterBlank = false
		}
		left = next
	}
	return body, ""
}

// startsWithIf reports whether line starts with the word "if".
func startsWithIf(line string) bool {
	return hasPrefixFold(line, "if") && (len(line) == 2 || isSpace(rune(line[2])))
}

// commentOf returns the body of a mail whose command is in the Subject,
// down to where reading stops, trimmed; and an Error when it was cut to
// maxLines lines or maxComment bytes.
func commentOf(body string) (string, []Error) {
	var b strings.Builder
	full := false // a line did not fit: no text after it is passed on
	afterBlank := true
	rest := body
	for n := 0; rest != ""; n++ {
		var raw string
		raw, rest = nextLine(rest)
		raw = strings.TrimRightFunc(raw, isSpace)
		line := strings.TrimLeftFunc(raw, isSpace)
		class := classify(normalise(line), afterBlank, rest)
		if class == stopLine {
			break
		}
		afterBlank = class == skipLine
		full = full || n >= maxLines || b.Len()+len(raw) >= maxComment
		switch {
		case !full:
			b.WriteString(raw)
			b.WriteByte('\n')
		case class == textLine:
			return strings.TrimFunc(b.String(), isSpace), []Error{
				lineError(line, Ignored, "the message is too long (at most %d lines or %d bytes): this line and the rest were not passed on", maxLines, maxComment),
			}
		}
	}
	return strings.TrimFunc(b.String(), isSpace), nil
}
