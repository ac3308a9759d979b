package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

// recentResults is how many finished games the games list shows.
const recentResults = 10

// games lists a player's games, the sender's or the one named: in
// progress games by urgency (to move, least time left first), then
// recent results.
func (h *handling) games(ctx context.Context, c parser.Command) error {
	p := *h.sender
	var list templates.GameList
	if c.Handle != "" {
		var err error
		p, err = h.tx.PlayerByHandle(ctx, c.Handle)
		if errors.Is(err, db.ErrNotFound) {
			h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchPlayer, Handle: c.Handle})
			return nil
		}
		if err != nil {
			return err
		}
		if p.ID != h.sender.ID {
			list.Of = p.Handle
		}
	}
	games, err := h.tx.GamesOf(ctx, p.ID)
	if err != nil {
		return err
	}
	var yours, theirs, finished []gameState
	for _, g := range games {
		gs, err := h.gameState(ctx, g)
		if err != nil {
			return err
		}
		switch {
		case g.Status == db.Active && gs.player(gs.pos.Turn()).ID == p.ID:
			yours = append(yours, gs)
		case g.Status == db.Active:
			theirs = append(theirs, gs)
		case g.Status == db.Challenged && g.Challenger == p.ID:
			list.Sent = append(list.Sent, gs.template())
		case g.Status == db.Challenged:
			list.ToAnswer = append(list.ToAnswer, gs.template())
		case g.Status == db.Finished:
			finished = append(finished, gs)
		}
	}
	byTimeLeft := func(a, b gameState) int { return a.deadline().Compare(b.deadline()) }
	slices.SortStableFunc(yours, byTimeLeft)
	slices.SortStableFunc(theirs, byTimeLeft)
	slices.SortStableFunc(finished, func(a, b gameState) int { return b.g.Updated.Compare(a.g.Updated) })
	list.YourMove, list.TheirMove = templateGames(yours), templateGames(theirs)
	list.Finished = templateGames(finished[:min(len(finished), recentResults)])
	h.answer(list)
	h.note("games")
	return nil
}

func templateGames(games []gameState) []templates.Game {
	var out []templates.Game
	for _, gs := range games {
		out = append(out, gs.template())
	}
	return out
}

// ratings lists the standings.
func (h *handling) ratings(ctx context.Context) error {
	players, err := h.tx.RatedPlayers(ctx)
	if err != nil {
		return err
	}
	var r templates.Ratings
	for i, p := range players {
		r.Rows = append(r.Rows, templates.Rating{Rank: i + 1, Handle: p.Handle, Rating: int(math.Round(p.Rating)), Games: p.RatedGames})
	}
	h.answer(r)
	h.note("ratings")
	return nil
}

// watch makes the sender an observer of a game, or stops it.
func (h *handling) watch(ctx context.Context, c parser.Command) error {
	gs, err := h.loadGame(ctx, c.Game)
	if errors.Is(err, db.ErrNotFound) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchGame, GameID: c.Game})
		return nil
	}
	if err != nil {
		return err
	}
	if gs.g.Has(h.sender.ID) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.OwnGame, GameID: c.Game})
		return nil
	}
	var changed bool
	if c.Kind == parser.Observe {
		changed, err = h.tx.AddObserver(ctx, gs.g.ID, h.sender.ID)
	} else {
		changed, err = h.tx.RemoveObserver(ctx, gs.g.ID, h.sender.ID)
	}
	if err != nil {
		return err
	}
	h.answer(templates.Observing{Game: gs.template(), On: c.Kind == parser.Observe, Changed: changed})
	h.note(fmt.Sprintf("%s %d", c.Kind, gs.g.ID))
	return nil
}

// seek starts a game with a player who seeks the same time control, or
// waits for one (M11); "seek off" withdraws the seek.
func (h *handling) seek(ctx context.Context, c parser.Command) error {
	if c.Off {
		had, err := h.tx.DeleteSeek(ctx, h.sender.ID)
		if err != nil {
			return err
		}
		h.answer(templates.Seeking{Off: true, Had: had})
		h.note("seek off")
		return nil
	}
	tc := c.TimeControl
	if tc.Days == 0 {
		tc = defaultControl
	}
	mine := db.Seek{Player: h.sender.ID, TimeControl: tc.String(), Rated: !c.Unrated, Created: h.now}
	answer := templates.Seeking{TimeControl: mine.TimeControl, Unrated: c.Unrated}
	match, err := h.tx.MatchSeek(ctx, mine)
	if errors.Is(err, db.ErrNotFound) {
		h.answer(answer)
		h.note("seek " + mine.TimeControl)
		return h.tx.SetSeek(ctx, mine)
	}
	if err != nil {
		return err
	}
	if answer.Started, err = h.startSeekGame(ctx, match, mine); err != nil {
		return err
	}
	h.answer(answer)
	return nil
}

// startSeekGame starts a game between the players of two matching seeks,
// colours drawn at random, and removes both seeks.
func (h *handling) startSeekGame(ctx context.Context, theirs, mine db.Seek) (int64, error) {
	for _, p := range []int64{theirs.Player, mine.Player} {
		if _, err := h.tx.DeleteSeek(ctx, p); err != nil {
			return 0, err
		}
	}
	var coin [1]byte
	if _, err := h.s.rand.Read(coin[:]); err != nil {
		return 0, fmt.Errorf("draw colours: %w", err)
	}
	white, black := theirs.Player, mine.Player
	if coin[0]&1 == 1 {
		white, black = black, white
	}
	g, err := h.tx.CreateGame(ctx, db.Game{White: white, Black: black, Challenger: theirs.Player, Status: db.Active,
		Position: rules.StartPosition, TimeControl: mine.TimeControl, Rated: mine.Rated}, h.now)
	if err != nil {
		return 0, err
	}
	gs, err := h.gameState(ctx, g)
	if err != nil {
		return 0, err
	}
	gs.startClocks()
	if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
		return 0, err
	}
	h.note(fmt.Sprintf("seek matched: game %d", g.ID))
	return g.ID, h.announce(ctx, &gs, templates.BoardData{Event: templates.Started}, nil, nil, false)
}

// notify sets how the sender hears of moves (M18).
func (h *handling) notify(ctx context.Context, c parser.Command) error {
	p := *h.sender
	p.Notify, p.DigestAt = db.Notify(c.Notice.String()), time.Time{}
	if c.Notice == parser.NoticeDigest {
		p.DigestAt = h.now.Add(digestEvery)
	}
	if err := h.tx.UpdatePlayer(ctx, p); err != nil {
		return err
	}
	*h.sender = p
	h.answer(templates.NotifySet{Mode: c.Notice.String()})
	h.note("notify " + c.Notice.String())
	return nil
}
