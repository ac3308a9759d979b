package play

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

// recentResults is how many finished games the games list shows.
const recentResults = 10

// BoardKey is what makes two board commands of one mail the same: one
// mail, one board of each position asked for.
func BoardKey(c parser.Command) string {
	a := c.Args.(parser.BoardArgs)
	return fmt.Sprintf("%d#%v%d", c.Game, a.Past, a.At)
}

// Board sends the board of a game the sender plays in or observes, in the
// game's thread; with #N, the position after black's move N (M15).
func Board(ctx context.Context, r *command.Request, a parser.BoardArgs) (command.Result, error) {
	st, err := r.VisibleGame(ctx)
	if err != nil {
		return command.Result{}, err
	}
	data := templates.BoardData{Lang: r.Lang(r.Sender), Game: tell.GameWords(&st), To: r.Sender.Handle, Past: a.Past, At: a.At}
	if err := r.Subject(ctx, &data.Game, r.Sender); err != nil {
		return command.Result{}, err
	}
	side := st.Side(r.Sender.ID)
	data.Board = templates.ViewOf(st.Pos, side)
	if a.Past {
		pos, ok, err := game.PositionAfter(ctx, r.Tx, &st, a.At)
		if err != nil {
			return command.Result{}, err
		}
		if !ok {
			// Answered, and asked once a mail all the same (BoardKey).
			return command.Fail(r.GameError(&st, templates.NoSuchMove, fmt.Sprintf("#%d", a.At))), nil
		}
		data.Board = templates.ViewOf(pos, side)
	}
	if !a.Past && st.Active() && st.ToMove().ID == r.Sender.ID {
		// The warnings of the board mails to the player to move (M25,
		// M61).
		data.Drowning = templates.DrowningOf(st.Pos)
		data.Attack = templates.LionAttackOn(st.Pos, st.Opponent(r.Sender.ID).Handle)
	}
	data.Page = r.GamePageFor(st.Game, r.Sender)
	if !a.Past {
		data.Taps = r.Taps(&st, r.Sender)
	}
	subject, body, html, err := templates.BoardMail(data)
	if err != nil {
		return command.Result{}, err
	}
	if _, err := r.GameMail(ctx, r.Sender, st.Game, subject, body, html); err != nil {
		return command.Result{}, err
	}
	return command.Result{Notes: []string{fmt.Sprintf("board %d", st.ID())}}, nil
}

// History sends the record of a game the sender plays in or observes;
// a player's own record holds their private notes too (M68), and nobody
// else's.
func History(ctx context.Context, r *command.Request) (command.Result, error) {
	st, err := r.VisibleGame(ctx)
	if err != nil {
		return command.Result{}, err
	}
	moves, err := r.Tx.Moves(ctx, st.ID())
	if err != nil {
		return command.Result{}, err
	}
	var notes []db.Note
	if st.Game.Has(r.Sender.ID) {
		if notes, err = r.Tx.Notes(ctx, st.ID(), r.Sender.ID); err != nil {
			return command.Result{}, err
		}
	}
	res := command.Answer(fmt.Sprintf("history %d", st.ID()), templates.Record{GameID: st.ID(), Text: game.RecordWithNotes(&st, moves, notes, r.Address())})
	res.Game = st.ID()
	return res, nil
}

// Games lists a player's games, the sender's or the one named: in
// progress games by urgency (to move, least time left first), then
// recent results.
func Games(ctx context.Context, r *command.Request, a parser.GamesArgs) (command.Result, error) {
	p := r.Sender
	var list templates.GameList
	if a.Handle != "" {
		var err error
		p, err = r.Tx.PlayerByHandle(ctx, a.Handle)
		if errors.Is(err, db.ErrNotFound) {
			return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.NoSuchPlayer, Handle: a.Handle})
		}
		if err != nil {
			return command.Result{}, err
		}
		if p.ID != r.Sender.ID {
			list.Of = p.Handle
		}
	}
	games, err := r.Tx.GamesOf(ctx, p.ID)
	if err != nil {
		return command.Result{}, err
	}
	var yours, theirs, finished []game.State
	for _, g := range games {
		st, err := game.Of(ctx, r.Tx, g, r.Now)
		if err != nil {
			return command.Result{}, err
		}
		switch {
		case g.Status == db.Active && st.ToMove().ID == p.ID:
			yours = append(yours, st)
		case g.Status == db.Active:
			theirs = append(theirs, st)
		case g.Status == db.Challenged && g.Challenger == p.ID:
			list.Sent = append(list.Sent, tell.GameWords(&st))
		case g.Status == db.Challenged:
			list.ToAnswer = append(list.ToAnswer, tell.GameWords(&st))
		case g.Status == db.Finished:
			finished = append(finished, st)
		}
	}
	byTimeLeft := func(a, b game.State) int { return a.Deadline().Compare(b.Deadline()) }
	slices.SortStableFunc(yours, byTimeLeft)
	slices.SortStableFunc(theirs, byTimeLeft)
	slices.SortStableFunc(finished, func(a, b game.State) int { return b.Game.Updated.Compare(a.Game.Updated) })
	list.YourMove, list.TheirMove = tell.GamesWords(yours), tell.GamesWords(theirs)
	list.Finished = tell.GamesWords(finished[:min(len(finished), recentResults)])
	return command.Answer("games", list), nil
}

// Ratings lists the standings of the rated players.
func Ratings(ctx context.Context, r *command.Request) (command.Result, error) {
	players, err := r.Tx.RatedPlayers(ctx)
	if err != nil {
		return command.Result{}, err
	}
	var list templates.Ratings
	for i, p := range players {
		list.Rows = append(list.Rows, templates.Rating{Rank: i + 1, Handle: p.Handle, Rating: int(math.Round(p.Rating)), Games: p.RatedGames})
	}
	return command.Answer("ratings", list), nil
}

// Observe makes the sender an observer of a game (observe), or no longer
// one (unobserve).
func Observe(on bool) func(ctx context.Context, r *command.Request) (command.Result, error) {
	return func(ctx context.Context, r *command.Request) (command.Result, error) {
		st, err := r.NamedGame(ctx)
		if err != nil {
			return command.Result{}, err
		}
		if st.Game.Has(r.Sender.ID) {
			return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.OwnGame, GameID: r.Game})
		}
		var changed bool
		if on {
			changed, err = r.Tx.AddObserver(ctx, st.ID(), r.Sender.ID)
		} else {
			changed, err = r.Tx.DeleteObserver(ctx, st.ID(), r.Sender.ID)
		}
		if err != nil {
			return command.Result{}, err
		}
		word := "unobserve"
		if on {
			word = "observe"
		}
		return command.Answer(fmt.Sprintf("%s %d", word, st.ID()), templates.Observing{Game: tell.GameWords(&st), On: on, Changed: changed}), nil
	}
}
