package server

import (
	"context"
	"errors"

	"github.com/congobymail/congo/account"
	"github.com/congobymail/congo/analyst"
	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/lobby"
	"github.com/congobymail/congo/operator"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/play"
	"github.com/congobymail/congo/templates"
	"github.com/congobymail/congo/tournament"
)

// need is who may give a command. The zero value means no one.
type need uint8

const (
	noOne        need = iota
	anyone            // any sender, registered or not
	registered        // a registered player, whether or not the mail proves it
	proven            // a registered player, by a mail that proves it (M5)
	operatorOnly      // the operator, by a mail that proves it
)

func (n need) String() string {
	return [...]string{"no one", "anyone", "registered", "proven", "operator"}[n]
}

// entry is what the server does with one kind of command: who may give
// it, and the room's handler that carries it out once they may.
type entry struct {
	need need
	// needs, when set, says who may give this particular command, for a
	// kind whose commands differ (showing conditional moves, or clearing
	// them).
	needs func(parser.Command) need
	// once, when set, is the key of a command asked once a mail: a
	// second with the same key, after one carried out, is not.
	once func(parser.Command) string
	run  func(ctx context.Context, r *command.Request, c parser.Command) (command.Result, error)
}

// handler is the handler of a command without arguments.
func handler(n need, fn func(context.Context, *command.Request) (command.Result, error)) entry {
	return entry{need: n, run: func(ctx context.Context, r *command.Request, _ parser.Command) (command.Result, error) {
		return fn(ctx, r)
	}}
}

// typed is the handler of a command with its kind's arguments, A.
func typed[A parser.Args](n need, fn func(context.Context, *command.Request, A) (command.Result, error)) entry {
	return entry{need: n, run: func(ctx context.Context, r *command.Request, c parser.Command) (command.Result, error) {
		return fn(ctx, r, c.Args.(A))
	}}
}

// commands is the table of every command the server carries out: who
// may give it, and which room carries it out. The parser's grammar says
// how each is written; to add a command, add its syntax there, its
// handler in its room, and its entry here.
var commands = map[parser.Kind]entry{
	// Accounts: anyone may register and read the manual.
	parser.Help:     handler(anyone, account.Help),
	parser.Register: typed(anyone, account.Register),
	parser.Rules:    handler(anyone, account.Rules),
	parser.NewKey:   handler(proven, account.NewKey),
	parser.Rename:   typed(proven, account.Rename),
	parser.Notify:   typed(proven, account.Notify),
	parser.Vacation: typed(proven, account.Vacation),
	parser.Language: typed(proven, account.Language),
	parser.Timezone: withNeeds(timezoneNeed, typed(noOne, account.Timezone)),
	parser.Weekends: typed(proven, account.Weekends),
	parser.Guard:    typed(proven, account.Guard),

	// The lobby: games begin.
	parser.Challenge: typed(proven, lobby.Challenge),
	parser.Accept:    handler(proven, lobby.Accept),
	parser.Decline:   handler(proven, lobby.Decline),
	parser.Seek:      typed(proven, lobby.Seek),

	// Play.
	parser.Move:        typed(proven, play.Move),
	parser.Resign:      handler(proven, play.Resign),
	parser.Draw:        handler(proven, play.Draw),
	parser.NoDraw:      handler(proven, play.NoDraw),
	parser.Takeback:    handler(proven, play.Takeback),
	parser.Abort:       handler(proven, play.Abort),
	parser.If:          typed(proven, play.If),
	parser.Conditional: withNeeds(conditionalNeed, typed(noOne, play.Conditional)),
	parser.Board:       once(play.BoardKey, typed(proven, play.Board)), // no board answers a mail that proves nothing (M31)
	parser.History:     handler(registered, play.History),
	parser.Games:       typed(registered, play.Games),
	parser.Ratings:     handler(registered, play.Ratings),
	parser.Observe:     handler(proven, play.Observe(true)),
	parser.Unobserve:   handler(proven, play.Observe(false)),

	// Time as players ask for it (M63-M66): each mails the opponent.
	parser.Pause:  handler(proven, play.Pause),
	parser.Give:   typed(proven, play.Give),
	parser.Claim:  handler(proven, play.Claim),
	parser.Resume: {need: proven, run: resume},

	// Playing better by mail (M68-M72): notes are kept and shown to
	// their author alone; a preview answers with a board, none for a
	// mail that proves nothing (M31).
	parser.Note:    typed(proven, play.Note),
	parser.Notes:   handler(registered, play.Notes),
	parser.Preview: typed(proven, play.Preview),

	// Analyses: their mails go to the asker, none for a mail that proves
	// nothing (M28, M31).
	parser.Analyze: once(analyst.Key, handler(proven, analyst.Analyze)),

	// Tournaments (M33, M34, M38, M73): every one proven, as each answer
	// but that of tournaments mails standings or others (M28, M31).
	parser.TournamentNew:    typed(proven, tournament.New),
	parser.TournamentStart:  typed(proven, tournament.Start),
	parser.TournamentCancel: typed(proven, tournament.Cancel),
	parser.TournamentKick:   typed(proven, tournament.Kick),
	parser.TournamentAdd:    typed(proven, tournament.AddRobot),
	parser.TournamentClose:  typed(proven, tournament.Close),
	parser.LadderChallenge:  typed(proven, tournament.Challenge),
	parser.Tournament:       typed(proven, tournament.Show),
	parser.Tournaments:      handler(registered, tournament.List),
	parser.Join:             typed(proven, tournament.Join),
	parser.Leave:            typed(proven, tournament.Leave),

	// The operator's.
	parser.Ban:        {need: operatorOnly, run: operator.Command},
	parser.Unban:      {need: operatorOnly, run: operator.Command},
	parser.Adjourn:    {need: operatorOnly, run: operator.Command},
	parser.Adjudicate: {need: operatorOnly, run: operator.Command},
}

// resume is one word for two commands: the operator's end of an
// adjournment, and a player's end of a pause by agreement (M63).
func resume(ctx context.Context, r *command.Request, c parser.Command) (command.Result, error) {
	if r.Operator {
		adjourned, err := r.Tx.Adjourned(ctx, c.Game)
		if err != nil && !errors.Is(err, db.ErrNotFound) {
			return command.Result{}, err
		}
		if adjourned {
			return operator.Command(ctx, r, c)
		}
	}
	return play.Resume(ctx, r)
}

// withNeeds is e, whose commands' needs say who may give each.
func withNeeds(needs func(parser.Command) need, e entry) entry {
	e.needs = needs
	return e
}

// once is e, asked once a mail by key.
func once(key func(parser.Command) string, e entry) entry {
	e.once = key
	return e
}

// timezoneNeed: asking one's time zone is a question, which any
// registered player may ask; setting it is a change.
func timezoneNeed(c parser.Command) need {
	if c.Args.(parser.TimezoneArgs).Zone == "" {
		return registered
	}
	return proven
}

// conditionalNeed: showing one's conditional moves is a question, which
// any registered player may ask; clearing them is a change.
func conditionalNeed(c parser.Command) need {
	if c.Args.(parser.ConditionalArgs).Clear {
		return proven
	}
	return registered
}

// needOf is who may give the command c.
func needOf(c parser.Command) need {
	e, ok := commands[c.Kind]
	switch {
	case !ok:
		return noOne
	case e.needs != nil:
		return e.needs(c)
	}
	return e.need
}

// run carries out one command, after checking who may give it: a banned
// player only help, in an adjourned game nothing but board (and the
// operator's commands), and each command as its need says.
func (h *processing) run(ctx context.Context, c parser.Command) error {
	h.kinds = append(h.kinds, c.Kind.String())
	e, ok := commands[c.Kind]
	if !ok {
		// A command the parser knows and the server does not: answer it,
		// so that the mail is not tried again and again.
		h.s.log.Error("command has no handler", "command", c.Kind.String(), "line", c.Line)
		h.fail(templates.Error{Line: c.Line, Problem: templates.Unsupported})
		return nil
	}
	if h.banned && c.Kind != parser.Help {
		h.fail(templates.Error{Line: c.Line, Problem: templates.Banned})
		return nil
	}
	if c.Game != 0 && c.Kind != parser.Board && !c.Kind.Operator() && !(c.Kind == parser.Resume && h.isOperator()) {
		adjourned, err := h.w.Tx.Adjourned(ctx, c.Game)
		if err != nil && !errors.Is(err, db.ErrNotFound) {
			return err
		}
		if adjourned {
			h.fail(templates.Error{Line: c.Line, Problem: templates.Adjourned, GameID: c.Game})
			return nil
		}
	}
	switch need := needOf(c); {
	case need >= registered && h.sender == nil:
		h.notRegistered(c)
		return nil
	case need >= proven && !h.proven:
		h.notProven(c.Line, c.Kind.String())
		return nil
	case need == operatorOnly && !h.isOperator():
		// The parser reads the operator's commands in the operator's
		// mail only: this is a second lock on the same door.
		h.fail(templates.Error{Line: c.Line, Problem: templates.Unsupported})
		return nil
	}
	key := ""
	if e.once != nil {
		if key = c.Kind.String() + " " + e.once(c); h.done[key] {
			return nil
		}
	}
	res, err := e.run(ctx, h.request(c), c)
	var refusal *command.Refusal
	switch {
	case errors.As(err, &refusal):
		res = refusal.Result
	case err != nil:
		return err
	case key != "":
		h.done[key] = true
	}
	return h.apply(ctx, res)
}
