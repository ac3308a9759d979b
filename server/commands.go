package server

import (
	"context"
	"errors"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// need is who may give a command. The zero value means no one.
type need uint8

const (
	noOne      need = iota
	anyone          // any sender, registered or not
	registered      // a registered player, whether or not the mail proves it
	proven          // a registered player, by a mail that proves it (M5)
	operator        // the operator, by a mail that proves it
)

func (n need) String() string {
	return [...]string{"no one", "anyone", "registered", "proven", "operator"}[n]
}

// command is what the server does with one kind of command: who may give
// it, and what carries it out once they may.
type command struct {
	need need
	// needs, when set, says who may give this particular command, for a
	// kind whose commands differ (showing conditional moves, or clearing
	// them).
	needs func(parser.Command) need
	run   func(h *handling, ctx context.Context, c parser.Command) error
}

// commands is the table of every command the server carries out. The
// parser's grammar says how each is written; to add a command, add its
// syntax there and its entry here, with its handler.
var commands = map[parser.Kind]command{
	parser.Help:        {need: anyone, run: (*handling).help},
	parser.Register:    {need: anyone, run: (*handling).register},
	parser.Rules:       {need: anyone, run: (*handling).rules},
	parser.Games:       {need: registered, run: (*handling).games},
	parser.Board:       {need: proven, run: (*handling).board}, // no board answers a mail that proves nothing (M31)
	parser.History:     {need: registered, run: (*handling).history},
	parser.Ratings:     {need: registered, run: (*handling).ratings},
	parser.Analyze:     {need: proven, run: (*handling).analyze}, // its mails go to the asker: none for a mail that proves nothing (M28, M31)
	parser.Conditional: {needs: conditionalNeed, run: (*handling).conditional},
	parser.NewKey:      {need: proven, run: (*handling).newKey},
	parser.Challenge:   {need: proven, run: (*handling).challenge},
	parser.Accept:      {need: proven, run: (*handling).accept},
	parser.Decline:     {need: proven, run: (*handling).decline},
	parser.Move:        {need: proven, run: (*handling).move},
	parser.Resign:      {need: proven, run: (*handling).resign},
	parser.Draw:        {need: proven, run: (*handling).draw},
	parser.NoDraw:      {need: proven, run: (*handling).noDraw},
	parser.Takeback:    {need: proven, run: (*handling).takeback},
	parser.Abort:       {need: proven, run: (*handling).abort},
	parser.If:          {need: proven, run: (*handling).ifLine},
	parser.Observe:     {need: proven, run: (*handling).watch},
	parser.Unobserve:   {need: proven, run: (*handling).watch},
	parser.Seek:        {need: proven, run: (*handling).seek},
	parser.Notify:      {need: proven, run: (*handling).notify},
	parser.Vacation:    {need: proven, run: (*handling).vacation},
	parser.Language:    {need: proven, run: (*handling).language},
	// Tournaments (M33, M34, M38): every one proven, as each answer but
	// that of tournaments mails standings or others (M28, M31).
	parser.TournamentNew:    {need: proven, run: (*handling).tournamentNew},
	parser.TournamentStart:  {need: proven, run: (*handling).tournamentStart},
	parser.TournamentCancel: {need: proven, run: (*handling).tournamentCancel},
	parser.TournamentKick:   {need: proven, run: (*handling).kick},
	parser.Tournament:       {need: proven, run: (*handling).tournamentShow},
	parser.Tournaments:      {need: registered, run: (*handling).tournaments},
	parser.Join:             {need: proven, run: (*handling).join},
	parser.Leave:            {need: proven, run: (*handling).leave},
	parser.Ban:              {need: operator, run: (*handling).operatorCommand},
	parser.Unban:            {need: operator, run: (*handling).operatorCommand},
	parser.Adjourn:          {need: operator, run: (*handling).operatorCommand},
	parser.Resume:           {need: operator, run: (*handling).operatorCommand},
	parser.Adjudicate:       {need: operator, run: (*handling).operatorCommand},
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
	cmd, ok := commands[c.Kind]
	switch {
	case !ok:
		return noOne
	case cmd.needs != nil:
		return cmd.needs(c)
	}
	return cmd.need
}

// run carries out one command, after checking who may give it: a banned
// player only help, in an adjourned game nothing but board (and the
// operator's commands), and each command as its need says.
func (h *handling) run(ctx context.Context, c parser.Command) error {
	h.kinds = append(h.kinds, c.Kind.String())
	cmd, ok := commands[c.Kind]
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
	if c.Game != 0 && c.Kind != parser.Board && !c.Kind.Operator() {
		adjourned, err := h.tx.Adjourned(ctx, c.Game)
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
	case need == operator && !h.isOperator():
		// The parser reads the operator's commands in the operator's
		// mail only: this is a second lock on the same door.
		h.fail(templates.Error{Line: c.Line, Problem: templates.Unsupported})
		return nil
	}
	return cmd.run(h, ctx, c)
}
