package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/rules"
)

// A game's page (M44): the board after ply N (?ply=N, from 0; the
// position now without it), the players with their ratings, the clocks,
// the result, the moves as links to their positions, and its record.

// gameView is a public game read in one transaction: the game, its
// players' profiles, its moves without their messages, and its
// tournament's name.
type gameView struct {
	g            db.Game
	white, black db.Profile
	moves        []db.Move
	event        string
	noVacation   bool // the tournament's vacations stop no clock (M67)
}

// loadGame reads a public game: challenges that wait or were declined
// are nobody's business but their two players', and are not found.
func loadGame(ctx context.Context, tx *db.Tx, idText string) (*gameView, error) {
	id, err := parseID(idText, "game")
	if err != nil {
		return nil, err
	}
	v := &gameView{}
	if v.g, err = tx.Game(ctx, id); errors.Is(err, db.ErrNotFound) || err == nil && !v.g.Public() {
		return nil, notFoundError(fmt.Sprintf("There is no game %d.", id))
	} else if err != nil {
		return nil, err
	}
	if v.white, err = tx.Profile(ctx, v.g.White); err != nil {
		return nil, err
	}
	if v.black, err = tx.Profile(ctx, v.g.Black); err != nil {
		return nil, err
	}
	if v.moves, err = tx.PublicMoves(ctx, id); err != nil {
		return nil, err
	}
	if v.g.Tournament != 0 {
		t, err := tx.Tournament(ctx, v.g.Tournament)
		if err != nil {
			return nil, err
		}
		v.event, v.noVacation = t.Name, t.NoVacation
	}
	return v, nil
}

// state is the game as the game package sees it, with players that are
// their handles and ratings alone.
func (v *gameView) state(pos rules.Position, now time.Time) game.State {
	player := func(p db.Profile) db.Player {
		return db.Player{ID: p.ID, Handle: p.Handle, Rating: p.Rating, TimeZone: p.TimeZone, WeekendsFrom: p.WeekendsFrom}
	}
	return game.State{
		Game:  v.g,
		White: player(v.white),
		Black: player(v.black),
		Pos:   pos, Start: startOf(v.g), Now: now, Event: v.event, NoVacation: v.noVacation,
	}
}

// record answers /games/<id>.pgn: the game's record as `history` writes
// it (game.Record), without the messages sent with the moves.
func (h *Handler) record(ctx context.Context, _ *http.Request, id string) (*response, error) {
	var text string
	var v *gameView
	err := h.db.ReadTx(ctx, func(tx *db.Tx) error {
		var err error
		if v, err = loadGame(ctx, tx, id); err != nil {
			return err
		}
		pos, err := rules.ParsePosition(v.g.Position)
		if err != nil {
			return err
		}
		st := v.state(pos, h.now())
		text = game.Record(&st, v.moves, h.site)
		return nil
	})
	if err != nil {
		return nil, err
	}
	resp := &response{body: []byte(text + "\n"), contentType: "text/plain; charset=utf-8"}
	v.cacheable(resp)
	return resp, nil
}

// cacheable lets a finished game's page be kept: it no longer changes.
func (v *gameView) cacheable(resp *response) {
	if v.g.Status == db.Finished {
		resp.modified = v.g.Updated
		resp.cache = "public, max-age=3600"
	}
}

// player is one side of a game as its page shows it.
type player struct {
	Handle string
	Href   string
	Colour string
	Rating int // 0 for none shown
	Clock  string
	ToMove bool
}

// moveCell is a move in the list: its text, the address of the position
// after it, and whether that is the position shown.
type moveCell struct {
	Text    string
	Href    string
	Current bool
}

// moveRow is a line of the move list: the R21 number, White's and
// Black's move.
type moveRow struct {
	Number       int
	White, Black *moveCell
}

// gameData is what game.html shows.
type gameData struct {
	ID                int64
	Href, RecordHref  string
	White, Black      player
	Event             string
	EventHref         string
	Round             int
	TimeControl       string
	Rated             bool
	Status            string // where the game stands now
	Result            string // "1-0", ...; "" while it is played
	Started, Ended    string
	Board             template.HTML
	Position          string // R21, of the position shown (M45)
	Shown             string // which position is shown
	Ply, Plies        int
	SetUp             string // the position the game began from (M72); "" for the start of every game
	First, Prev, Next string
	Last              string
	Moves             []moveRow
	// Side is the side the board is shown from, "white" or "black";
	// Turn is the address of the same position from the other side, and
	// TurnTo that side, for the link that turns the board round.
	Side, Turn, TurnTo string
}

// gamePage answers /games/<id> and /games/<id>?ply=N.
func (h *Handler) gamePage(ctx context.Context, r *http.Request, id string) (*response, error) {
	var d gameData
	var v *gameView
	err := h.db.ReadTx(ctx, func(tx *db.Tx) error {
		var err error
		v, err = loadGame(ctx, tx, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	ply := len(v.moves)
	q := r.URL.Query()
	side := rules.White
	if s, ok := q["side"]; ok {
		switch {
		case len(s) == 1 && s[0] == "black":
			side = rules.Black
		case len(s) == 1 && s[0] == "white":
		default:
			return nil, fmt.Errorf("%w: ?side= takes white or black, the side the board is seen from", errBadRequest)
		}
	}
	if s, ok := q["ply"]; ok {
		n, err := strconv.Atoi(s[0])
		if err != nil || n < 0 || len(s) > 1 {
			return nil, fmt.Errorf("%w: ?ply= takes the number of moves played, from 0", errBadRequest)
		}
		if n > len(v.moves) {
			return nil, notFoundError(fmt.Sprintf("Game %d has had %s (counting both sides'): there is no position after %d.", v.g.ID, plural(len(v.moves), "move"), n))
		}
		ply = n
	}
	if d, err = h.gameData(v, ply, side); err != nil {
		return nil, err
	}
	title := fmt.Sprintf("Game %d: %s vs %s", v.g.ID, v.white.Handle, v.black.Handle)
	_, stepping := q["ply"]
	if _, turned := q["side"]; turned {
		stepping = true // the same positions, seen from Black's side: not for search engines either
	}
	b, err := h.render("game", pageData{Title: title, NoIndex: stepping, Script: true, Data: d})
	if err != nil {
		return nil, err
	}
	resp := &response{body: b}
	v.cacheable(resp)
	return resp, nil
}

// gameData makes the page of v at ply, the board seen from side.
func (h *Handler) gameData(v *gameView, ply int, side rules.Color) (gameData, error) {
	g := v.g
	now, err := rules.ParsePosition(g.Position)
	if err != nil {
		return gameData{}, fmt.Errorf("game %d: %w", g.ID, err)
	}
	start := startOf(g)
	pos := start
	if ply > 0 {
		if pos, err = rules.ParsePosition(v.moves[ply-1].Position); err != nil {
			return gameData{}, fmt.Errorf("game %d, move %d: %w", g.ID, ply, err)
		}
	}
	st := v.state(now, h.now())
	href := fmt.Sprintf("%sgames/%d", h.base, g.ID)
	d := gameData{
		ID: g.ID, Href: href, RecordHref: href + ".pgn",
		White: player{Handle: v.white.Handle, Href: h.playerHref(v.white.Handle), Colour: "white"},
		Black: player{Handle: v.black.Handle, Href: h.playerHref(v.black.Handle), Colour: "black"},
		Event: v.event, Round: g.Round,
		TimeControl: timeControl(g.TimeControl), Rated: g.Rated,
		Started:  moment(g.Created),
		Position: pos.String(), Ply: ply, Plies: len(v.moves), SetUp: g.Start,
	}
	if g.Tournament != 0 {
		d.EventHref = fmt.Sprintf("%stournaments/%d", h.base, g.Tournament)
	}
	// The ratings: those a rated game ended with, or the players' own
	// while it goes on; none for a game over unrated, whose page then
	// changes no more.
	switch {
	case g.Status == db.Finished && g.WhiteRating != 0:
		d.White.Rating, d.Black.Rating = round(g.WhiteRating), round(g.BlackRating)
	case g.Status == db.Active:
		d.White.Rating, d.Black.Rating = round(v.white.Rating), round(v.black.Rating)
	}
	switch {
	case g.Status == db.Finished:
		d.Status, d.Result, d.Ended = outcome(g, v.white.Handle, v.black.Handle), g.Result.Score(), moment(g.Updated)
	case g.IsAdjourned():
		d.Status = "Adjourned by the server's operator: nobody moves, and the clocks stand still."
	case g.IsPaused():
		d.Status = fmt.Sprintf("Paused by agreement since %s: nobody moves, and the clocks stand still.", moment(g.Paused))
	default:
		c, n := now.Turn(), now.MoveNumber()
		d.Status = fmt.Sprintf("Move %d: %s (%s) to move.", n, st.Player(c).Handle, colourWord(c))
	}
	if w, b, ok := st.Clocks(); ok && !g.IsAdjourned() {
		d.White.Clock, d.Black.Clock = clockWords(w), clockWords(b)
		if now.Turn() == rules.White {
			d.White.ToMove = true
		} else {
			d.Black.ToMove = true
		}
	}
	var last rules.Move
	if ply > 0 {
		before := start
		if ply > 1 {
			if before, err = rules.ParsePosition(v.moves[ply-2].Position); err != nil {
				return gameData{}, err
			}
		}
		m := v.moves[ply-1]
		if last, err = before.ParseMove(m.Move); err != nil {
			return gameData{}, fmt.Errorf("game %d, move %d: %w", g.ID, ply, err)
		}
		d.Last = moveLabel(start, m.Ply, m.Move)
	}
	switch {
	case ply == 0 && g.Start != "":
		d.Shown = "The position the game began from"
	case ply == 0:
		d.Shown = "The start"
	case ply == len(v.moves):
		d.Shown = "After " + d.Last + ", the last move"
	default:
		d.Shown = fmt.Sprintf("After %s (%d of %d moves)", d.Last, ply, len(v.moves))
	}
	// Every link of the page keeps the side the board is seen from; the
	// one that turns it round keeps the position.
	at := func(n int, from rules.Color) string {
		var q []string
		if n != len(v.moves) {
			q = append(q, fmt.Sprintf("ply=%d", n))
		}
		if from == rules.Black {
			q = append(q, "side=black")
		}
		if len(q) == 0 {
			return href
		}
		return href + "?" + strings.Join(q, "&")
	}
	stepTo := func(n int) string {
		u := fmt.Sprintf("%s?ply=%d", href, n)
		if side == rules.Black {
			u += "&side=black"
		}
		return u
	}
	other := colourWord(side.Other())
	d.Side, d.Turn, d.TurnTo = colourWord(side), at(ply, side.Other()), strings.ToUpper(other[:1])+other[1:]
	d.Href = at(len(v.moves), side)
	if ply > 0 {
		d.First, d.Prev = stepTo(0), stepTo(ply-1)
	}
	if ply < len(v.moves) {
		d.Next = stepTo(ply + 1)
	}
	for _, m := range v.moves {
		c := &moveCell{Text: m.Move, Href: stepTo(m.Ply), Current: m.Ply == ply}
		switch n, side := game.MoveNumber(start, m.Ply); {
		case side == rules.White:
			d.Moves = append(d.Moves, moveRow{Number: n, White: c})
		case len(d.Moves) > 0:
			d.Moves[len(d.Moves)-1].Black = c
		default: // a game from a position with Black to move (M72)
			d.Moves = append(d.Moves, moveRow{Number: n, Black: c})
		}
	}
	toMove, number := movingAt(start, ply)
	label := fmt.Sprintf("The board of game %d after %s: %s to play move %d", g.ID, plural(ply, "move"), colourWord(toMove), number)
	if ply == len(v.moves) && g.Status == db.Finished {
		label = fmt.Sprintf("The final position of game %d", g.ID)
	}
	if side == rules.Black {
		label += ", seen from Black's side"
	}
	d.Board = boardSVG(pos, last, label, side)
	return d, nil
}

func round(r float64) int { return int(math.Round(r)) }
