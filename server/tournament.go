package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/director"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
	"github.com/congobymail/congo/tournament"
)

// tournamentNew creates a tournament directed by the sender (M33).
func (h *handling) tournamentNew(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.TournamentNewArgs)
	spec := director.Spec{Name: a.Name, System: tournament.RoundRobin, Rounds: a.Rounds, Double: a.Double,
		Control: a.Control, Unrated: a.Unrated}
	if a.System == parser.Swiss {
		spec.System = tournament.Swiss
	}
	st, err := director.New(ctx, h.tx, *h.sender, spec, h.now)
	if err != nil {
		return err
	}
	h.answer(templates.TournamentCreated{T: tournamentWords(&st)})
	h.note(fmt.Sprintf("tournament %d created", st.T.ID))
	return nil
}

// loadTournament loads the tournament a command names, or answers that
// there is none and returns ok false.
func (h *handling) loadTournament(ctx context.Context, c parser.Command) (director.State, bool, error) {
	var id int64
	switch a := c.Args.(type) {
	case parser.TournamentArgs:
		id = a.Tournament
	case parser.KickArgs: // kick, and leave when directors kick themselves
		id = a.Tournament
	}
	st, err := director.Load(ctx, h.tx, id)
	if errors.Is(err, db.ErrNotFound) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchTournament, Detail: fmt.Sprint(id)})
		return director.State{}, false, nil
	}
	return st, err == nil, err
}

// directedTournament loads the tournament a command names when the
// sender directs it (or is the operator, who may do all a director may);
// otherwise it answers why not. what is what only the director may do,
// for the answer: "start", "cancel" or "kick".
func (h *handling) directedTournament(ctx context.Context, c parser.Command, what string) (director.State, bool, error) {
	st, ok, err := h.loadTournament(ctx, c)
	if !ok || st.T.Director == h.sender.ID || h.isOperator() {
		return st, ok, err
	}
	h.tournamentRefused(c, &st, &director.Refusal{Problem: director.NotDirector}, what)
	return director.State{}, false, nil
}

// tournamentRefused answers a *director.Refusal of c about st and
// reports whether err was one.
func (h *handling) tournamentRefused(c parser.Command, st *director.State, err error, detail string) bool {
	var r *director.Refusal
	if !errors.As(err, &r) {
		return false
	}
	t := tournamentWords(st)
	e := templates.Error{Line: c.Line, Tournament: &t, Detail: detail}
	switch r.Problem {
	case director.NotOpen:
		e.Problem = templates.TournamentNotOpen
	case director.NotRunning:
		e.Problem = templates.TournamentNotRunning
	case director.Joined:
		e.Problem = templates.Joined
	case director.NotAPlayer:
		e.Problem = templates.NotAPlayer
	case director.NotDirector:
		e.Problem = templates.NotDirector
	case director.TooFew:
		e.Problem = templates.TooFewPlayers
	default:
		e.Problem = templates.Unsupported
	}
	h.fail(e)
	return true
}

// join adds the sender to an open tournament; its director is told.
func (h *handling) join(ctx context.Context, c parser.Command) error {
	st, ok, err := h.loadTournament(ctx, c)
	if err != nil || !ok {
		return err
	}
	err = director.Join(ctx, h.tx, &st, *h.sender, h.now)
	if h.tournamentRefused(c, &st, err, "") {
		return nil
	}
	if err != nil {
		return err
	}
	h.answer(templates.TournamentJoin{T: tournamentWords(&st)})
	h.note(fmt.Sprintf("joined tournament %d", st.T.ID))
	return h.tellDirector(ctx, &st, templates.TournamentJoined)
}

// leave takes the sender out of a tournament: before the start they are
// no longer in it, after it they withdraw (M38).
func (h *handling) leave(ctx context.Context, c parser.Command) error {
	st, ok, err := h.loadTournament(ctx, c)
	if err != nil || !ok {
		return err
	}
	if st.T.Status != db.TournamentOpen {
		return h.withdraw(ctx, c, &st, *h.sender)
	}
	err = director.Leave(ctx, h.tx, &st, *h.sender)
	if h.tournamentRefused(c, &st, err, "") {
		return nil
	}
	if err != nil {
		return err
	}
	h.answer(templates.TournamentJoin{T: tournamentWords(&st), Left: true})
	h.note(fmt.Sprintf("left tournament %d", st.T.ID))
	return h.tellDirector(ctx, &st, templates.TournamentLeftNews)
}

// kick withdraws a player from a tournament, by its director (M38); the
// player is told.
func (h *handling) kick(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.KickArgs)
	st, ok, err := h.directedTournament(ctx, c, "kick")
	if err != nil || !ok {
		return err
	}
	p, err := h.tx.PlayerByHandle(ctx, a.Handle)
	if errors.Is(err, db.ErrNotFound) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchPlayer, Handle: a.Handle})
		return nil
	}
	if err != nil {
		return err
	}
	if p.ID == h.sender.ID {
		return h.leave(ctx, c)
	}
	if st.T.Status != db.TournamentOpen {
		return h.withdraw(ctx, c, &st, p)
	}
	err = director.Leave(ctx, h.tx, &st, p)
	if h.tournamentRefused(c, &st, err, "") {
		return nil
	}
	if err != nil {
		return err
	}
	h.answer(templates.TournamentDone{T: tournamentWords(&st), News: templates.TournamentWithdrawn, Who: p.Handle})
	h.note(fmt.Sprintf("%s out of tournament %d", p.Handle, st.T.ID))
	return h.tournamentMail(ctx, p, templates.TournamentData{T: tournamentWords(&st), News: templates.TournamentWithdrawn, By: h.sender.Handle})
}

// withdraw takes p out of a running tournament: their games in progress
// are lost, and the ends of those games move the tournament on.
func (h *handling) withdraw(ctx context.Context, c parser.Command, st *director.State, p db.Player) error {
	self := p.ID == h.sender.ID
	who := p.Handle
	if self {
		who = ""
	}
	evs, err := director.Withdraw(ctx, h.tx, st, p, h.now)
	if r := (*director.Refusal)(nil); errors.As(err, &r) && r.Problem == director.NotAPlayer {
		if tp, ok := st.Player(p.ID); ok && !tp.Withdrawn.IsZero() {
			t := tournamentWords(st)
			h.fail(templates.Error{Line: c.Line, Problem: templates.NotAPlayer, Handle: who, Detail: "withdrew", Tournament: &t})
			return nil
		}
	}
	if h.tournamentRefused(c, st, err, "") {
		return nil
	}
	if err != nil {
		return err
	}
	var lost []int64
	var yours []templates.TournamentGame
	for _, e := range evs {
		if e.Kind == game.Ended {
			lost = append(lost, e.Game.ID())
			yours = append(yours, tournamentGame(e.Game.Game, e.Game.White.Handle, e.Game.Black.Handle))
		}
	}
	t := tournamentWords(st)
	h.answer(templates.TournamentDone{T: t, News: templates.TournamentWithdrawn, Who: p.Handle, You: self, Lost: lost})
	h.note(fmt.Sprintf("%s withdrew from tournament %d", p.Handle, st.T.ID))
	if !self {
		if err := h.tournamentMail(ctx, p, templates.TournamentData{T: t, News: templates.TournamentWithdrawn, By: h.sender.Handle, Yours: yours}); err != nil {
			return err
		}
	}
	h.rated(evs)
	return h.tell(ctx, evs, nil)
}

// tournamentStart begins a tournament, by its director (M35, M36).
func (h *handling) tournamentStart(ctx context.Context, c parser.Command) error {
	st, ok, err := h.directedTournament(ctx, c, "start")
	if err != nil || !ok {
		return err
	}
	evs, err := director.Start(ctx, h.tx, &st, h.now)
	if h.tournamentRefused(c, &st, err, "") {
		return nil
	}
	if err != nil {
		return err
	}
	games := 0
	for _, e := range evs {
		games += len(e.Games)
	}
	h.answer(templates.TournamentDone{T: tournamentWords(&st), News: templates.TournamentStarted, Games: games})
	h.note(fmt.Sprintf("tournament %d started", st.T.ID))
	return h.tournamentEvents(ctx, evs, h.sender.Handle)
}

// tournamentCancel calls off a tournament before its start; its players
// are told.
func (h *handling) tournamentCancel(ctx context.Context, c parser.Command) error {
	st, ok, err := h.directedTournament(ctx, c, "cancel")
	if err != nil || !ok {
		return err
	}
	evs, err := director.Cancel(ctx, h.tx, &st, h.now)
	if h.tournamentRefused(c, &st, err, "") {
		return nil
	}
	if err != nil {
		return err
	}
	h.answer(templates.TournamentDone{T: tournamentWords(&st), News: templates.TournamentCancelled})
	h.note(fmt.Sprintf("tournament %d cancelled", st.T.ID))
	return h.tournamentEvents(ctx, evs, h.sender.Handle)
}

// tournamentShow sends the standings of a tournament, with the crosstable
// of a round robin, as a mail of its own whose HTML part has them as
// tables (M34).
func (h *handling) tournamentShow(ctx context.Context, c parser.Command) error {
	st, ok, err := h.loadTournament(ctx, c)
	if err != nil || !ok {
		return err
	}
	d := templates.TournamentData{T: tournamentWords(&st), News: templates.TournamentStandings}
	if st.T.Status == db.TournamentRunning || st.T.Status == db.TournamentOver {
		if err := standingsOf(&st, &d); err != nil {
			return err
		}
		if st.System() == tournament.Swiss {
			d.Pairings, d.Bye = roundGames(&st, st.T.Round)
		}
		for _, g := range st.Games {
			if g.Status == db.Active {
				d.Playing++
			}
		}
	}
	h.note(fmt.Sprintf("tournament %d", st.T.ID))
	return h.tournamentMail(ctx, *h.sender, d)
}

// tournaments lists the tournaments open for joining and those running.
func (h *handling) tournaments(ctx context.Context, c parser.Command) error {
	var list templates.TournamentList
	for _, status := range []db.TournamentStatus{db.TournamentOpen, db.TournamentRunning} {
		ts, err := h.tx.TournamentsIn(ctx, status)
		if err != nil {
			return err
		}
		for _, t := range ts {
			st, err := director.Load(ctx, h.tx, t.ID)
			if err != nil {
				return err
			}
			if status == db.TournamentOpen {
				list.Open = append(list.Open, tournamentWords(&st))
			} else {
				list.Running = append(list.Running, tournamentWords(&st))
			}
		}
	}
	h.answer(list)
	h.note("tournaments")
	return nil
}

// tellDirector tells the director of st that the sender joined or left
// it, unless the sender is the director.
func (h *handling) tellDirector(ctx context.Context, st *director.State, news templates.News) error {
	if st.T.Director == h.sender.ID {
		return nil
	}
	d, err := h.tx.Player(ctx, st.T.Director)
	if err != nil {
		return err
	}
	return h.tournamentMail(ctx, d, templates.TournamentData{T: tournamentWords(st), News: news, By: h.sender.Handle})
}
