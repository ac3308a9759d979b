// Package tournament is the room of the tournaments played by mail
// (M33-M39, M73-M74): their commands (tournament new, start, cancel,
// kick, close, join, leave, challenge ladder, and the standings), and
// the mails of their events, to their players and director, each
// system's in its file. The life of a tournament over a transaction is
// package director's; pairing and scoring are package pairing's.
package tournament

import (
	"context"
	"errors"
	"fmt"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/director"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/pairing"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/templates"
)

// New creates a tournament directed by the sender (M33).
func New(ctx context.Context, r *command.Request, a parser.TournamentNewArgs) (command.Result, error) {
	spec := director.Spec{Name: a.Name, Rounds: a.Rounds, Double: a.Double, Games: a.Games,
		Control: a.Control, Unrated: a.Unrated, Pauses: a.Pauses, NoVacation: a.NoVacation}
	sys, ok := pairing.ParseSystem(a.System)
	if !ok {
		return command.Result{}, fmt.Errorf("tournament new: no system %q", a.System)
	}
	spec.System = sys
	st, err := director.New(ctx, r.Tx, r.Sender, spec, r.Now)
	if err != nil {
		return command.Result{}, err
	}
	return command.Answer(fmt.Sprintf("tournament %d created", st.T.ID), templates.TournamentCreated{T: Words(&st)}), nil
}

// load loads the tournament id, or refuses the command: there is none.
func load(ctx context.Context, r *command.Request, id int64) (director.State, error) {
	st, err := director.Load(ctx, r.Tx, id)
	if errors.Is(err, db.ErrNotFound) {
		return director.State{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.NoSuchTournament, Detail: fmt.Sprint(id)})
	}
	return st, err
}

// directed loads the tournament id when the sender directs it (or is the
// operator, who may do all a director may); otherwise it refuses the
// command. what is what only the director may do, for the answer:
// "start", "cancel" or "kick".
func directed(ctx context.Context, r *command.Request, id int64, what string) (director.State, error) {
	st, err := load(ctx, r, id)
	if err != nil || st.T.Director == r.Sender.ID || r.Operator {
		return st, err
	}
	return director.State{}, refused(r, &st, &director.Refusal{Problem: director.NotDirector}, what)
}

// refused turns err, when it is a *director.Refusal about st, into the
// refusal of the command; any other error it returns as it is.
func refused(r *command.Request, st *director.State, err error, detail string) error {
	var rf *director.Refusal
	if !errors.As(err, &rf) {
		return err
	}
	t := Words(st)
	e := templates.Error{Line: r.Line, Tournament: &t, Detail: detail}
	switch rf.Problem {
	case director.NotOpen:
		e.Problem = templates.TournamentNotOpen
	case director.NotRunning:
		e.Problem = templates.TournamentNotRunning
	case director.Joined:
		e.Problem = templates.Joined
	case director.NotAPlayer:
		e.Problem, e.Handle = templates.NotAPlayer, rf.Handle
	case director.NotDirector:
		e.Problem = templates.NotDirector
	case director.TooFew:
		e.Problem = templates.TooFewPlayers
	case director.Continuous:
		e.Problem = templates.LadderRuns
	case director.NotLadder:
		e.Problem = templates.NotLadder
	case director.Closed:
		e.Problem = templates.ClosedLadder
	case director.OutOfReach:
		e.Problem, e.Handle, e.Places = templates.OutOfReach, rf.Handle, rf.Places
	case director.Busy:
		e.Problem, e.GameID = templates.Busy, rf.Game
		if rf.Handle != r.Sender.Handle {
			e.Handle = rf.Handle
		}
	default:
		e.Problem = templates.Unsupported
	}
	return command.Refuse(e)
}

// Join adds the sender to an open tournament; its director is told.
func Join(ctx context.Context, r *command.Request, a parser.TournamentArgs) (command.Result, error) {
	st, err := load(ctx, r, a.Tournament)
	if err != nil {
		return command.Result{}, err
	}
	if err := budget(ctx, r, &st); err != nil {
		return command.Result{}, err
	}
	if err := director.Join(ctx, r.Tx, &st, r.Sender, r.Now); err != nil {
		return command.Result{}, refused(r, &st, err, "")
	}
	answer := templates.TournamentJoin{T: Words(&st)}
	if st.Continuous() {
		p, _ := st.Player(r.Sender.ID)
		answer.Place, answer.Reach = p.Place, reach(&st, r.Sender.Handle)
	}
	return command.Answer(fmt.Sprintf("joined tournament %d", st.T.ID), answer),
		tellDirector(ctx, r, &st, templates.TournamentJoined)
}

// Leave takes the sender out of a tournament: before the start they are
// no longer in it, after it they withdraw (M38).
func Leave(ctx context.Context, r *command.Request, a parser.TournamentArgs) (command.Result, error) {
	st, err := load(ctx, r, a.Tournament)
	if err != nil {
		return command.Result{}, err
	}
	return leave(ctx, r, &st)
}

// leave takes the sender out of the tournament st.
func leave(ctx context.Context, r *command.Request, st *director.State) (command.Result, error) {
	if st.T.Status != db.TournamentOpen {
		return withdraw(ctx, r, st, r.Sender)
	}
	if err := budget(ctx, r, st); err != nil {
		return command.Result{}, err
	}
	if err := director.Leave(ctx, r.Tx, st, r.Sender); err != nil {
		return command.Result{}, refused(r, st, err, "")
	}
	return command.Answer(fmt.Sprintf("left tournament %d", st.T.ID), templates.TournamentJoin{T: Words(st), Left: true}),
		tellDirector(ctx, r, st, templates.TournamentLeftNews)
}

// Kick withdraws a player from a tournament, by its director (M38); the
// player is told.
func Kick(ctx context.Context, r *command.Request, a parser.KickArgs) (command.Result, error) {
	st, err := directed(ctx, r, a.Tournament, "kick")
	if err != nil {
		return command.Result{}, err
	}
	p, err := r.Tx.PlayerByHandle(ctx, a.Handle)
	if errors.Is(err, db.ErrNotFound) {
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.NoSuchPlayer, Handle: a.Handle})
	}
	if err != nil {
		return command.Result{}, err
	}
	if p.ID == r.Sender.ID {
		return leave(ctx, r, &st)
	}
	if err := r.Budget(ctx, p); err != nil {
		return command.Result{}, err
	}
	if st.T.Status != db.TournamentOpen {
		return withdraw(ctx, r, &st, p)
	}
	if err := director.Leave(ctx, r.Tx, &st, p); err != nil {
		return command.Result{}, refused(r, &st, err, "")
	}
	res := command.Answer(fmt.Sprintf("%s out of tournament %d", p.Handle, st.T.ID),
		templates.TournamentDone{T: Words(&st), News: templates.TournamentWithdrawn, Who: p.Handle})
	return res, mail(ctx, r.Work, p, templates.TournamentData{T: Words(&st), News: templates.TournamentWithdrawn, By: r.Sender.Handle})
}

// withdraw takes p out of a running tournament: their games in progress
// are lost, and the ends of those games move the tournament on.
func withdraw(ctx context.Context, r *command.Request, st *director.State, p db.Player) (command.Result, error) {
	self := p.ID == r.Sender.ID
	who := p.Handle
	if self {
		who = ""
	}
	evs, err := director.Withdraw(ctx, r.Tx, st, p, r.Now)
	if rf := (*director.Refusal)(nil); errors.As(err, &rf) && rf.Problem == director.NotAPlayer {
		if tp, ok := st.Player(p.ID); ok && !tp.Withdrawn.IsZero() {
			t := Words(st)
			return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.NotAPlayer, Handle: who, Detail: "withdrew", Tournament: &t})
		}
	}
	if err != nil {
		return command.Result{}, refused(r, st, err, "")
	}
	var lost []int64
	var yours []templates.TournamentGame
	for _, e := range evs {
		if e.Kind == game.Ended {
			lost = append(lost, e.Game.ID())
			yours = append(yours, gameWords(e.Game.Game, e.Game.White.Handle, e.Game.Black.Handle))
		}
	}
	t := Words(st)
	res := command.Answer(fmt.Sprintf("%s withdrew from tournament %d", p.Handle, st.T.ID),
		templates.TournamentDone{T: t, News: templates.TournamentWithdrawn, Who: p.Handle, You: self, Lost: lost})
	if !self {
		if err := mail(ctx, r.Work, p, templates.TournamentData{T: t, News: templates.TournamentWithdrawn, By: r.Sender.Handle, Yours: yours}); err != nil {
			return command.Result{}, err
		}
	}
	res.Events = evs
	return res, nil
}

// AddRobot adds the robot to an open tournament, by its director (M60):
// it plays its games there like any player, at the level asked
// (robot.DefaultLevel unless one is named). Nobody else is mailed: the
// players see the robot among them in the mail that starts the games.
func AddRobot(ctx context.Context, r *command.Request, a parser.TournamentAddArgs) (command.Result, error) {
	st, err := directed(ctx, r, a.Tournament, "add")
	if err != nil {
		return command.Result{}, err
	}
	p, err := r.Tx.PlayerByHandle(ctx, a.Handle)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return command.Result{}, err
	}
	if err != nil || !r.IsRobot(p) {
		t := Words(&st)
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.NotTheRobot, Handle: a.Handle, Tournament: &t})
	}
	level := a.Level
	if level == 0 {
		level = robot.DefaultLevel
	}
	if _, in := st.Player(p.ID); in && st.T.Status == db.TournamentOpen {
		t := Words(&st)
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.Joined, Handle: p.Handle, Tournament: &t})
	}
	if err := director.AddRobot(ctx, r.Tx, &st, p, level, r.Now); err != nil {
		return command.Result{}, refused(r, &st, err, "")
	}
	return command.Answer(fmt.Sprintf("tournament %d: robot added at level %d", st.T.ID, level),
		templates.TournamentRobot{T: Words(&st), Robot: p.Handle, Level: level}), nil
}

// Start begins a tournament, by its director (M35, M36).
func Start(ctx context.Context, r *command.Request, a parser.TournamentArgs) (command.Result, error) {
	st, err := directed(ctx, r, a.Tournament, "start")
	if err != nil {
		return command.Result{}, err
	}
	evs, err := director.Start(ctx, r.Tx, &st, r.Now)
	if err != nil {
		return command.Result{}, refused(r, &st, err, "")
	}
	games := 0
	for _, e := range evs {
		games += len(e.Games)
	}
	res := command.Answer(fmt.Sprintf("tournament %d started", st.T.ID),
		templates.TournamentDone{T: Words(&st), News: templates.TournamentStarted, Games: games})
	return res, events(ctx, r.Work, evs, r.Sender.Handle)
}

// Cancel calls off a tournament before its start; its players are told.
func Cancel(ctx context.Context, r *command.Request, a parser.TournamentArgs) (command.Result, error) {
	st, err := directed(ctx, r, a.Tournament, "cancel")
	if err != nil {
		return command.Result{}, err
	}
	evs, err := director.Cancel(ctx, r.Tx, &st, r.Now)
	if err != nil {
		return command.Result{}, refused(r, &st, err, "")
	}
	res := command.Answer(fmt.Sprintf("tournament %d cancelled", st.T.ID),
		templates.TournamentDone{T: Words(&st), News: templates.TournamentCancelled})
	return res, events(ctx, r.Work, evs, r.Sender.Handle)
}

// Show sends the standings of a tournament, with the crosstable of a
// round robin, as a mail of its own whose HTML part has them as tables
// (M34).
func Show(ctx context.Context, r *command.Request, a parser.TournamentArgs) (command.Result, error) {
	st, err := load(ctx, r, a.Tournament)
	if err != nil {
		return command.Result{}, err
	}
	d := templates.TournamentData{T: Words(&st), News: templates.TournamentStandings, To: r.Sender.Handle}
	if st.T.Status == db.TournamentRunning || st.T.Status == db.TournamentOver {
		if err := wordingOf(&st).show(&st, &d); err != nil {
			return command.Result{}, err
		}
	}
	return command.Result{Notes: []string{fmt.Sprintf("tournament %d", st.T.ID)}}, mail(ctx, r.Work, r.Sender, d)
}

// List lists the tournaments open for joining and those running.
func List(ctx context.Context, r *command.Request) (command.Result, error) {
	var list templates.TournamentList
	for _, status := range []db.TournamentStatus{db.TournamentOpen, db.TournamentRunning} {
		ts, err := r.Tx.TournamentsIn(ctx, status)
		if err != nil {
			return command.Result{}, err
		}
		for _, t := range ts {
			st, err := director.Load(ctx, r.Tx, t.ID)
			if err != nil {
				return command.Result{}, err
			}
			if status == db.TournamentOpen {
				list.Open = append(list.Open, Words(&st))
			} else {
				list.Running = append(list.Running, Words(&st))
			}
		}
	}
	return command.Answer("tournaments", list), nil
}

// budget refuses a player's join or leave past their budget of mail to
// the director of st, whom it tells (command.Request.Budget).
func budget(ctx context.Context, r *command.Request, st *director.State) error {
	if st.T.Director == r.Sender.ID {
		return nil
	}
	d, err := r.Tx.Player(ctx, st.T.Director)
	if err != nil {
		return err
	}
	return r.Budget(ctx, d)
}

// tellDirector tells the director of st that the sender joined or left
// it, unless the sender is the director.
func tellDirector(ctx context.Context, r *command.Request, st *director.State, news templates.News) error {
	if st.T.Director == r.Sender.ID {
		return nil
	}
	d, err := r.Tx.Player(ctx, st.T.Director)
	if err != nil {
		return err
	}
	data := templates.TournamentData{T: Words(st), News: news, By: r.Sender.Handle}
	if p, ok := st.Player(r.Sender.ID); ok {
		data.Place = p.Place
	}
	return mail(ctx, r.Work, d, data)
}
