package server

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/director"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
	"github.com/congobymail/congo/tournament"
)

// tournamentNew creates a tournament directed by the sender (M33).
func (h *handling) tournamentNew(ctx context.Context, c parser.Command) error {
	spec := director.Spec{Name: c.Name, System: tournament.RoundRobin, Rounds: c.Rounds, Double: c.Double,
		Control: c.TimeControl, Unrated: c.Unrated}
	if c.System == parser.Swiss {
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
	st, err := director.Load(ctx, h.tx, c.Tournament)
	if errors.Is(err, db.ErrNotFound) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchTournament, Detail: fmt.Sprint(c.Tournament)})
		return director.State{}, false, nil
	}
	return st, err == nil, err
}

// directedTournament loads the tournament a command names when the
// sender directs it (or is the operator, who may do all a director may);
// otherwise it answers why not. what is what only the director may do,
// for the answer: "start it", "call it off", ...
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
	st, ok, err := h.directedTournament(ctx, c, "withdraw a player from it")
	if err != nil || !ok {
		return err
	}
	p, err := h.tx.PlayerByHandle(ctx, c.Handle)
	if errors.Is(err, db.ErrNotFound) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchPlayer, Handle: c.Handle})
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
	st, ok, err := h.directedTournament(ctx, c, "start it")
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
	st, ok, err := h.directedTournament(ctx, c, "call it off")
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

// tournamentGamesEnded moves on the tournaments of the games that ended
// (director.GameEnded), and mails what that does.
func (w *work) tournamentGamesEnded(ctx context.Context, ended []db.Game) error {
	for _, g := range ended {
		evs, err := director.GameEnded(ctx, w.tx, g, w.now)
		if err != nil {
			return err
		}
		if err := w.tournamentEvents(ctx, evs, ""); err != nil {
			return err
		}
	}
	return nil
}

// tournamentEvents mails what happened to tournaments: to each player,
// their games that begin and the pairings, the standings, the end. These
// mails and the boards of the games that begin are the server's, not
// counted against the player whose move or command caused them (M29):
// one move may end a round of many players. by is who caused them, for
// the words: the director who called a tournament off.
func (w *work) tournamentEvents(ctx context.Context, evs []director.Event, by string) error {
	cause := w.cause
	w.cause = ""
	defer func() { w.cause = cause }()
	for _, e := range evs {
		st := e.T
		t := tournamentWords(&st)
		base := templates.TournamentData{T: t, Round: e.Round}
		switch e.Kind {
		case director.RoundBegun:
			base.News = templates.TournamentStarted
			if e.Round > 1 {
				base.News = templates.TournamentRound
				standings, err := st.StandingsAfter(e.Round - 1)
				if err != nil {
					return err
				}
				base.Standings = standingsWords(st.System(), standings)
			}
			if st.System() == tournament.Swiss {
				base.Pairings, base.Bye = roundGames(&st, e.Round)
			}
		case director.RoundEnded, director.Finished:
			base.News = templates.TournamentRoundOver
			if e.Kind == director.Finished {
				base.News = templates.TournamentOver
			}
			if err := standingsOf(&st, &base); err != nil {
				return err
			}
		case director.Cancelled:
			base.News, base.By = templates.TournamentCancelled, by
		default:
			continue
		}
		for _, p := range st.Players {
			switch {
			case e.Kind == director.Cancelled && p.Handle == base.By:
				continue // they know: it is their answer
			case e.Kind == director.RoundBegun && !p.Withdrawn.IsZero():
				continue
			}
			d := base
			d.Yours = yourGames(&st, p.ID, e.Kind, e.Round)
			if p.ID == st.T.Director {
				for _, g := range e.Rematches {
					d.Rematches = append(d.Rematches, templates.TournamentGame{Round: e.Round, White: g.White, Black: g.Black})
				}
			}
			if err := w.tournamentMail(ctx, p.Player, d); err != nil {
				return err
			}
		}
		if len(e.Games) > 0 {
			if err := w.tell(ctx, e.Games, nil); err != nil {
				return err
			}
			// The boards of the games that begin go now, as the server's
			// mails, after the mail that lists them.
			var ids []int64
			for _, g := range e.Games {
				ids = append(ids, g.Game.ID())
			}
			if err := w.flushGames(ctx, ids); err != nil {
				return err
			}
		}
	}
	return nil
}

// tournamentMail queues one mail about a tournament to p.
func (w *work) tournamentMail(ctx context.Context, p db.Player, d templates.TournamentData) error {
	d.To = p.Handle
	subject, text, html, err := templates.TournamentMail(d)
	if err != nil {
		return err
	}
	o := w.mailTo(p, subject, text)
	o.HTML = html
	_, err = w.enqueue(ctx, outbox.Mail{Out: o})
	return err
}

// tournamentWords is a tournament as mails name it.
func tournamentWords(st *director.State) templates.Tournament {
	t := templates.Tournament{ID: st.T.ID, Name: st.T.Name, Swiss: st.System() == tournament.Swiss, Rounds: st.T.Rounds,
		Double: st.T.Double, TimeControl: st.T.TimeControl, Unrated: !st.T.Rated, Status: st.T.Status.String(),
		Round: st.T.Round, MinPlayers: director.MinPlayers}
	for _, p := range st.Players {
		if p.ID == st.T.Director {
			t.Director = p.Handle
		}
		t.Players = append(t.Players, p.Handle)
	}
	if t.Director == "" {
		t.Director = st.Director.Handle // who left before the start
	}
	return t
}

// standingsOf fills in the standings of st, and a round robin's
// crosstable.
func standingsOf(st *director.State, d *templates.TournamentData) error {
	standings, err := st.Standings()
	if err != nil {
		return err
	}
	sys := st.System()
	d.Standings = standingsWords(sys, standings)
	if sys != tournament.RoundRobin {
		return nil
	}
	ct, err := st.Crosstable()
	if err != nil {
		return err
	}
	c := &templates.Crosstable{Text: ct.String(), Cells: ct.Cells}
	for _, s := range ct.Standings {
		c.Handles = append(c.Handles, s.Handle)
		c.Points = append(c.Points, tournament.FormatPoints(s.Points))
	}
	d.Crosstable = c
	return nil
}

// standingsWords are standings as mails show them.
func standingsWords(sys tournament.System, standings []tournament.Standing) []templates.Standing {
	out := make([]templates.Standing, len(standings))
	for i, s := range standings {
		out[i] = templates.Standing{Line: s.Format(sys), Place: s.Place, Handle: s.Handle,
			Points: tournament.FormatPoints(s.Points), Buchholz: tournament.FormatPoints(s.Buchholz),
			SB: tournament.FormatPoints(s.SB), Withdrawn: s.Withdrawn}
	}
	return out
}

// roundGames are the games of a round, board by board, and its bye.
func roundGames(st *director.State, round int) ([]templates.TournamentGame, string) {
	var out []templates.TournamentGame
	for _, g := range st.Games {
		if g.Round == round {
			out = append(out, tournamentGame(g, st.Handle(g.White), st.Handle(g.Black)))
		}
	}
	bye := ""
	if id, ok := st.Byes[round]; ok {
		bye = st.Handle(id)
	}
	return out, bye
}

// yourGames are the games of player that an event begins: all of a
// round robin's at its start, a Swiss's round's.
func yourGames(st *director.State, player int64, k director.Kind, round int) []templates.TournamentGame {
	if k != director.RoundBegun {
		return nil
	}
	var out []templates.TournamentGame
	for _, g := range st.Games {
		if g.Has(player) && (st.System() == tournament.RoundRobin || g.Round == round) {
			out = append(out, tournamentGame(g, st.Handle(g.White), st.Handle(g.Black)))
		}
	}
	slices.SortStableFunc(out, func(a, b templates.TournamentGame) int { return a.Round - b.Round })
	return out
}

// tournamentGame is a game of a tournament as its lists show it.
func tournamentGame(g db.Game, white, black string) templates.TournamentGame {
	tg := templates.TournamentGame{Round: g.Round, GameID: g.ID, White: white, Black: black}
	if g.Status == db.Finished {
		tg.Result = map[db.Result]string{db.WhiteWins: "1-0", db.BlackWins: "0-1", db.Draw: "½-½"}[g.Result]
	}
	return tg
}
