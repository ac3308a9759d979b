package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

const (
	// recentResults is how many finished games the games list shows.
	recentResults = 10
	// digestEvery is how often a digest goes out (M18).
	digestEvery = 24 * time.Hour
)

// board sends the board of one of the sender's games, in the game's
// thread; with #N, the position after black's move N (M15).
func (h *handling) board(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.BoardArgs)
	st, ok, err := h.visibleGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	// One mail, one board of each position asked for; and boards count
	// against the reply limit like any answer, since board needs no proof.
	key := fmt.Sprintf("%d#%v%d", st.ID(), a.Past, a.At)
	if h.boards[key] {
		return nil
	}
	if h.boards == nil {
		h.boards = map[string]bool{}
	}
	h.boards[key] = true
	data := templates.BoardData{Lang: h.lang(*h.sender), Game: gameWords(&st), To: h.sender.Handle, Past: a.Past, At: a.At}
	if err := h.subject(ctx, &data.Game, *h.sender); err != nil {
		return err
	}
	side := st.Side(h.sender.ID)
	data.Board = templates.ViewOf(st.Pos, side)
	if a.Past {
		pos, ok, err := game.PositionAfter(ctx, h.tx, st.ID(), a.At)
		if err != nil {
			return err
		}
		if !ok {
			h.fail(h.gameError(c, &st, templates.NoSuchMove, fmt.Sprintf("#%d", a.At)))
			return nil
		}
		data.Board = templates.ViewOf(pos, side)
	}
	data.Page = h.s.gamePage(st.ID())
	subject, body, html, err := templates.BoardMail(data)
	if err != nil {
		return err
	}
	h.note(fmt.Sprintf("board %d", st.ID()))
	_, err = h.gameMail(ctx, *h.sender, st.Game, subject, body, html)
	return err
}

// history sends the record of a game the sender plays in or observes.
func (h *handling) history(ctx context.Context, c parser.Command) error {
	st, ok, err := h.visibleGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	moves, err := h.tx.Moves(ctx, st.ID())
	if err != nil {
		return err
	}
	h.answer(templates.Record{GameID: st.ID(), Text: game.Record(&st, moves, h.s.address)})
	h.note(fmt.Sprintf("history %d", st.ID()))
	if h.replyGame == 0 {
		h.replyGame = st.ID()
	}
	return nil
}

// games lists a player's games, the sender's or the one named: in
// progress games by urgency (to move, least time left first), then
// recent results.
func (h *handling) games(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.GamesArgs)
	p := *h.sender
	var list templates.GameList
	if a.Handle != "" {
		var err error
		p, err = h.tx.PlayerByHandle(ctx, a.Handle)
		if errors.Is(err, db.ErrNotFound) {
			h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchPlayer, Handle: a.Handle})
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
	var yours, theirs, finished []game.State
	for _, g := range games {
		st, err := game.Of(ctx, h.tx, g, h.now)
		if err != nil {
			return err
		}
		switch {
		case g.Status == db.Active && st.ToMove().ID == p.ID:
			yours = append(yours, st)
		case g.Status == db.Active:
			theirs = append(theirs, st)
		case g.Status == db.Challenged && g.Challenger == p.ID:
			list.Sent = append(list.Sent, gameWords(&st))
		case g.Status == db.Challenged:
			list.ToAnswer = append(list.ToAnswer, gameWords(&st))
		case g.Status == db.Finished:
			finished = append(finished, st)
		}
	}
	byTimeLeft := func(a, b game.State) int { return a.Deadline().Compare(b.Deadline()) }
	slices.SortStableFunc(yours, byTimeLeft)
	slices.SortStableFunc(theirs, byTimeLeft)
	slices.SortStableFunc(finished, func(a, b game.State) int { return b.Game.Updated.Compare(a.Game.Updated) })
	list.YourMove, list.TheirMove = gamesWords(yours), gamesWords(theirs)
	list.Finished = gamesWords(finished[:min(len(finished), recentResults)])
	h.answer(list)
	h.note("games")
	return nil
}

// ratings lists the standings.
func (h *handling) ratings(ctx context.Context, c parser.Command) error {
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
	st, ok, err := h.namedGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	if st.Game.Has(h.sender.ID) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.OwnGame, GameID: c.Game})
		return nil
	}
	var changed bool
	if c.Kind == parser.Observe {
		changed, err = h.tx.AddObserver(ctx, st.ID(), h.sender.ID)
	} else {
		changed, err = h.tx.RemoveObserver(ctx, st.ID(), h.sender.ID)
	}
	if err != nil {
		return err
	}
	h.answer(templates.Observing{Game: gameWords(&st), On: c.Kind == parser.Observe, Changed: changed})
	h.note(fmt.Sprintf("%s %d", c.Kind, st.ID()))
	return nil
}

// seek starts a game with a player who seeks the same time control, or
// waits for one (M11); "seek off" withdraws the seek.
func (h *handling) seek(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.SeekArgs)
	if a.Off {
		had, err := h.tx.DeleteSeek(ctx, h.sender.ID)
		if err != nil {
			return err
		}
		h.answer(templates.Seeking{Off: true, Had: had})
		h.note("seek off")
		return nil
	}
	tc := a.Control
	if tc.Days == 0 {
		tc = game.DefaultControl
	}
	mine := db.Seek{Player: h.sender.ID, TimeControl: tc.String(), Rated: !a.Unrated, Created: h.now}
	answer := templates.Seeking{TimeControl: mine.TimeControl, Unrated: a.Unrated}
	match, err := h.tx.MatchSeek(ctx, mine)
	if errors.Is(err, db.ErrNotFound) {
		h.answer(answer)
		h.note("seek " + mine.TimeControl)
		return h.tx.SetSeek(ctx, mine)
	}
	if err != nil {
		return err
	}
	if answer.Started, err = h.startSeekGame(ctx, match, mine, tc); err != nil {
		return err
	}
	h.answer(answer)
	return nil
}

// startSeekGame starts a game between the players of two matching seeks,
// colours drawn at random, and removes both seeks.
func (h *handling) startSeekGame(ctx context.Context, theirs, mine db.Seek, tc parser.TimeControl) (int64, error) {
	for _, p := range []int64{theirs.Player, mine.Player} {
		if _, err := h.tx.DeleteSeek(ctx, p); err != nil {
			return 0, err
		}
	}
	var coin [1]byte
	if _, err := h.s.rand.Read(coin[:]); err != nil {
		return 0, fmt.Errorf("draw colours: %w", err)
	}
	other, err := h.tx.Player(ctx, theirs.Player)
	if err != nil {
		return 0, err
	}
	terms := game.Terms{White: other, Black: *h.sender, Challenger: other, Control: tc, Unrated: !mine.Rated}
	if coin[0]&1 == 1 {
		terms.White, terms.Black = terms.Black, terms.White
	}
	st, evs, err := game.Start(ctx, h.tx, terms, h.now)
	if err != nil {
		return 0, err
	}
	h.note(fmt.Sprintf("seek matched: game %d", st.ID()))
	return st.ID(), h.tell(ctx, evs, nil)
}

// notify sets how the sender hears of moves (M18).
func (h *handling) notify(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.NotifyArgs)
	p := *h.sender
	p.Notify, p.DigestAt = db.Notify(a.Notice.String()), time.Time{}
	if a.Notice == parser.NoticeDigest {
		p.DigestAt = h.now.Add(digestEvery)
	}
	if err := h.tx.UpdatePlayer(ctx, p); err != nil {
		return err
	}
	*h.sender = p
	h.answer(templates.NotifySet{Mode: a.Notice.String()})
	h.note("notify " + a.Notice.String())
	return nil
}

// vacation starts the sender's vacation, at once, or ends it: their
// clocks stop in every game meanwhile, and their opponents are told.
func (h *handling) vacation(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.VacationArgs)
	var r *game.Refusal
	if a.Off {
		p, err := game.EndVacation(ctx, h.tx, *h.sender, h.now)
		if errors.As(err, &r) {
			h.fail(templates.Error{Line: c.Line, Problem: templates.NotOnVacation})
			return nil
		}
		if err != nil {
			return err
		}
		*h.sender = p
		h.answer(templates.VacationSet{Off: true, Left: p.VacationLeft})
		h.note("vacation off")
		return nil
	}
	p, n, evs, err := game.StartVacation(ctx, h.tx, *h.sender, a.Days, h.now)
	switch {
	case errors.As(err, &r) && r.Problem == game.OnVacation:
		h.fail(templates.Error{Line: c.Line, Problem: templates.OnVacation, Until: r.Until})
		return nil
	case errors.As(err, &r):
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoVacation, Left: r.Left})
		return nil
	case err != nil:
		return err
	}
	*h.sender = p
	h.rated(evs)
	if err := h.tell(ctx, evs, nil); err != nil {
		return err
	}
	h.answer(templates.VacationSet{Until: p.VacationUntil, Left: p.VacationLeft, Games: n})
	h.note(fmt.Sprintf("vacation %d", a.Days))
	return nil
}
