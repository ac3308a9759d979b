package tournament

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/director"
	"github.com/congobymail/congo/pairing"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// ladder is what a ladder's mails say (M73): the challenge to the
// player challenged, the places a result changed to those it moved, the
// ladder and its games in progress, the final order.
type ladder struct{}

// ladderShown is how many places of a ladder a mail shows whole; a
// longer one shows its top ladderTop and the places around the
// recipient's.
const (
	ladderShown = 100
	ladderTop   = 20
	ladderNear  = 5 // places above and below the recipient's
)

func (ladder) show(st *director.State, d *templates.TournamentData) error {
	d.Ladder = ladderLines(st.Ladder(), d.To)
	for _, g := range st.Games {
		if g.Status == db.Active {
			d.InProgress = append(d.InProgress, gameWords(g, st.Handle(g.White), st.Handle(g.Black)))
		}
	}
	return nil
}

func (ladder) news(e *director.Event, d *templates.TournamentData) ([]db.TournamentPlayer, error) {
	switch e.Kind {
	case director.LadderMoved:
		d.News = templates.LadderMoved
		var to []db.TournamentPlayer
		for _, m := range e.Moves {
			d.Moves = append(d.Moves, templates.LadderMove{Handle: m.Player.Handle, From: m.From, To: m.To})
			to = append(to, db.TournamentPlayer{Player: m.Player})
		}
		g := gameWords(e.Game, e.White.Handle, e.Black.Handle)
		d.Game = &g
		return to, nil
	case director.Finished:
		d.News = templates.TournamentOver
		var to []db.TournamentPlayer
		for _, p := range e.T.Players {
			if p.Place > 0 {
				to = append(to, p)
			}
		}
		return to, nil
	}
	return nil, nil // LadderClosing: the director's answer says it
}

// yours: the ladder's lines around the recipient, at its end.
func (ladder) yours(e *director.Event, p db.TournamentPlayer, d *templates.TournamentData) {
	if e.Kind == director.Finished {
		d.Ladder = ladderLines(e.T.Ladder(), p.Handle)
	}
}

// ladderLines are a ladder's lines for a mail to handle: all of them,
// or for a long ladder its top and the places around handle's, a gap
// between.
func ladderLines(st []pairing.LadderStanding, handle string) []templates.LadderLine {
	show := make([]bool, len(st))
	for i, s := range st {
		show[i] = len(st) <= ladderShown || i < ladderTop
		if s.Handle == handle {
			for j := max(0, i-ladderNear); j <= min(len(st)-1, i+ladderNear); j++ {
				show[j] = true
			}
		}
	}
	var out []templates.LadderLine
	for i, s := range st {
		switch {
		case show[i]:
			out = append(out, templates.LadderLine{Line: s.Format(), Place: s.Place, Handle: s.Handle,
				Wins: s.Wins, Draws: s.Draws, Losses: s.Losses})
		case i == 0 || show[i-1]:
			out = append(out, templates.LadderLine{Gap: true})
		}
	}
	return out
}

// Challenge starts a ladder game (M73): challenge ladder <t> <handle>.
// The game begins at once, the sender White; the player challenged is
// told, by a mail and the game's board, so the sender's budget of mail
// to others pays for it, and it counts as one of their challenges of
// the day (M29).
func Challenge(ctx context.Context, r *command.Request, a parser.LadderChallengeArgs) (command.Result, error) {
	st, err := load(ctx, r, a.Tournament)
	if err != nil {
		return command.Result{}, err
	}
	opponent, err := r.Tx.PlayerByHandle(ctx, a.Handle)
	if errors.Is(err, db.ErrNotFound) {
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.NoSuchPlayer, Handle: a.Handle})
	}
	if err != nil {
		return command.Result{}, err
	}
	if opponent.ID == r.Sender.ID {
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.ChallengeSelf})
	}
	if n := r.Settings().ChallengesPerDay; n > 0 {
		sent, err := r.Tx.CountChallengesSince(ctx, r.Sender.ID, r.Now.Add(-24*time.Hour))
		if err != nil {
			return command.Result{}, err
		}
		if sent >= n {
			return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.TooManyChallenges, Detail: fmt.Sprint(n)})
		}
	}
	if err := r.Budget(ctx, opponent); err != nil {
		return command.Result{}, err
	}
	gs, evs, err := director.Challenge(ctx, r.Tx, &st, r.Sender, opponent, r.Now)
	if err != nil {
		return command.Result{}, refused(r, &st, err, "")
	}
	var places [2]int
	for _, p := range st.Players {
		switch p.ID {
		case r.Sender.ID:
			places[0] = p.Place
		case opponent.ID:
			places[1] = p.Place
		}
	}
	game := gameWords(gs.Game, r.Sender.Handle, opponent.Handle)
	t := Words(&st)
	res := command.Answer(fmt.Sprintf("challenge ladder %d %s: game %d", st.T.ID, opponent.Handle, gs.ID()),
		templates.LadderChallenge{T: t, Game: game, Places: places})
	res.Events = evs
	return res, mail(ctx, r.Work, opponent, templates.TournamentData{T: t, News: templates.LadderChallenged,
		By: r.Sender.Handle, Place: places[1], Other: places[0], Game: &game})
}

// Close closes a ladder, by its director (M73): no more challenges or
// players; when its last game in progress has ended (at once if none
// is being played) its players get the final order.
func Close(ctx context.Context, r *command.Request, a parser.TournamentArgs) (command.Result, error) {
	st, err := directed(ctx, r, a.Tournament, "close")
	if err != nil {
		return command.Result{}, err
	}
	evs, err := director.Close(ctx, r.Tx, &st, r.Now)
	if err != nil {
		return command.Result{}, refused(r, &st, err, "")
	}
	playing := 0
	for _, g := range st.Games {
		if g.Status == db.Active {
			playing++
		}
	}
	res := command.Answer(fmt.Sprintf("tournament %d closed", st.T.ID),
		templates.TournamentDone{T: Words(&st), News: templates.LadderClosed, Games: playing})
	return res, events(ctx, r.Work, evs, r.Sender.Handle)
}

// reach are the players of st that handle may challenge, nearest first.
func reach(st *director.State, handle string) []string {
	lines := st.Ladder()
	var out []string
	for i, l := range lines {
		if l.Handle != handle {
			continue
		}
		for j := i - 1; j >= 0 && pairing.InReach(i+1, j+1); j-- {
			out = append(out, lines[j].Handle)
		}
	}
	return out
}
