package db

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// The queries of the web companion (M44-M46). They read only what anyone
// may know: handles and ratings of players (never an address or a
// secret), games that were accepted (never a challenge waiting or
// declined), and moves without the messages sent with them.

// Profile is what anyone may know of a player: the handle and the rating.
type Profile struct {
	ID         int64
	Handle     string
	Rating     float64
	Deviation  float64
	RatedGames int
	// TimeZone and WeekendsFrom are the player's time zone and weekend
	// pause (M64), which their clocks show to all (db.Player).
	TimeZone     string
	WeekendsFrom time.Time
}

const profileColumns = "id, handle, rating, deviation, rated_games, timezone, weekends_from"

// Public reports whether a game is shown to anyone: it was accepted (or
// began by itself), so both players play it.
func (g Game) Public() bool { return g.Status == Active || g.Status == Finished }

// ProfileByHandle returns the profile of the player with the handle,
// ignoring case, who has confirmed their address (M28): a player
// registered by a mail that proved nothing is nobody's business yet.
func (tx *Tx) ProfileByHandle(ctx context.Context, handle string) (Profile, error) {
	p, err := scanProfile(tx.queryRow(ctx, tx.db.q.profileByHandle, handle))
	if err != nil {
		return Profile{}, notFound(err, fmt.Sprintf("player %q", handle))
	}
	return p, nil
}

// Profile returns the profile of the player with the id.
func (tx *Tx) Profile(ctx context.Context, id int64) (Profile, error) {
	p, err := scanProfile(tx.queryRow(ctx, "SELECT "+profileColumns+" FROM players WHERE id = ?", id))
	if err != nil {
		return Profile{}, notFound(err, fmt.Sprintf("player %d", id))
	}
	return p, nil
}

// RatedProfiles returns at most limit players with a rated game, the
// highest rating first (then by handle).
func (tx *Tx) RatedProfiles(ctx context.Context, limit int) ([]Profile, error) {
	rows, err := tx.query(ctx, tx.db.q.ratedProfiles, limit)
	if err != nil {
		return nil, fmt.Errorf("rated players: %w", err)
	}
	defer rows.Close()
	var out []Profile
	for rows.Next() {
		p, err := scanProfile(rows)
		if err != nil {
			return nil, fmt.Errorf("rated players: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

func scanProfile(row scanner) (Profile, error) {
	var p Profile
	var weekends string
	err := row.Scan(&p.ID, &p.Handle, &p.Rating, &p.Deviation, &p.RatedGames, &p.TimeZone, &weekends)
	if err != nil {
		return Profile{}, err
	}
	p.WeekendsFrom, err = parseOptTime(weekends)
	return p, err
}

// ListedGame is a game with its players' handles and its tournament's
// name ("" for none), as lists show it.
type ListedGame struct {
	Game
	WhiteHandle, BlackHandle string
	Event                    string
}

// gameColumnsG is gameColumns of the games table named g in a join
// (TestGameColumnsG keeps the two the same).
const gameColumnsG = "g.id, g.white, g.black, g.challenger, g.status, g.position, g.result, g.reason, g.thread_root, g.created, g.updated," +
	" g.time_control, g.rated, g.white_left, g.black_left, g.clock_start, g.turn_time, g.reminders, g.draw_offer, g.takeback, g.adjourned," +
	" g.white_rating, g.black_rating, coalesce(g.tournament, 0), g.round, g.clock_due, g.pause_asked, g.paused, g.paused_for," +
	" g.given, g.timeout_claim, g.start"

const listedFrom = "SELECT " + gameColumnsG + ", w.handle, b.handle, coalesce(t.name, '') FROM games AS g" +
	" JOIN players AS w ON w.id = g.white JOIN players AS b ON b.id = g.black LEFT JOIN tournaments AS t ON t.id = g.tournament"

// RecentGames returns at most limit games being played (status Active)
// or over (Finished), the one that changed last first.
func (tx *Tx) RecentGames(ctx context.Context, status Status, limit int) ([]ListedGame, error) {
	// The conditions are literal, so that SQLite uses the partial indexes.
	switch status {
	case Active:
		return tx.listGames(ctx, "games in progress",
			listedFrom+" WHERE g.status = 'active' ORDER BY g.updated DESC, g.id DESC LIMIT ?", limit)
	case Finished:
		return tx.listGames(ctx, "games over",
			listedFrom+" WHERE g.status = 'finished' ORDER BY g.updated DESC, g.id DESC LIMIT ?", limit)
	}
	return nil, fmt.Errorf("recent games: status %v is not listed", status)
}

// PlayerGames returns at most limit public games of a player, the one
// that changed last first.
func (tx *Tx) PlayerGames(ctx context.Context, player int64, limit int) ([]ListedGame, error) {
	return tx.listGames(ctx, fmt.Sprintf("games of player %d", player),
		listedFrom+" WHERE (g.white = ? OR g.black = ?) AND g.status IN ('active', 'finished')"+
			" ORDER BY g.updated DESC, g.id DESC LIMIT ?", player, player, limit)
}

func (tx *Tx) listGames(ctx context.Context, what, query string, args ...any) ([]ListedGame, error) {
	rows, err := tx.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []ListedGame
	for rows.Next() {
		var l ListedGame
		g, err := scanGameWith(rows, &l.WhiteHandle, &l.BlackHandle, &l.Event)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		l.Game = g
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// CountActive counts the games being played.
func (tx *Tx) CountActive(ctx context.Context) (int, error) {
	var n int
	if err := tx.queryRow(ctx, "SELECT count(*) FROM games WHERE status = 'active'").Scan(&n); err != nil {
		return 0, fmt.Errorf("count games in progress: %w", err)
	}
	return n, nil
}

// Score is a player's finished games by result: those won, drawn and
// lost, and those aborted.
type Score struct {
	Won, Drawn, Lost, Aborted int
}

// ScoreOf counts a player's finished games by result.
func (tx *Tx) ScoreOf(ctx context.Context, player int64) (Score, error) {
	rows, err := tx.query(ctx,
		"SELECT result, white, count(*) FROM games WHERE (white = ? OR black = ?) AND status = 'finished' GROUP BY result, white",
		player, player)
	if err != nil {
		return Score{}, fmt.Errorf("score of player %d: %w", player, err)
	}
	defer rows.Close()
	var s Score
	for rows.Next() {
		var result string
		var white int64
		var n int
		if err := rows.Scan(&result, &white, &n); err != nil {
			return Score{}, fmt.Errorf("score of player %d: %w", player, err)
		}
		r, err := parseResult(result)
		if err != nil {
			return Score{}, err
		}
		won := r == WhiteWins && white == player || r == BlackWins && white != player
		switch {
		case r == NoResult:
			s.Aborted += n
		case r == Draw:
			s.Drawn += n
		case won:
			s.Won += n
		default:
			s.Lost += n
		}
	}
	return s, rows.Err()
}

// PublicMoves returns the moves of a game in order, without the messages
// sent with them (Move.Message is empty).
func (tx *Tx) PublicMoves(ctx context.Context, game int64) ([]Move, error) {
	rows, err := tx.query(ctx, "SELECT ply, move, position, at FROM moves WHERE game = ? ORDER BY ply", game)
	if err != nil {
		return nil, fmt.Errorf("moves of game %d: %w", game, err)
	}
	defer rows.Close()
	var moves []Move
	for rows.Next() {
		m := Move{Game: game}
		var at string
		if err := rows.Scan(&m.Ply, &m.Move, &m.Position, &at); err != nil {
			return nil, fmt.Errorf("moves of game %d: %w", game, err)
		}
		if m.At, err = parseTime(at); err != nil {
			return nil, err
		}
		moves = append(moves, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("moves of game %d: %w", game, err)
	}
	return moves, nil
}

// Ended is a game that ended: who played it, how it ended, when, whether
// it was rated, and the ratings it ended with (zero when it was not
// rated, or ended before they were kept).
type Ended struct {
	Game                     int64
	White, Black             int64
	Result                   Result
	At                       time.Time
	Rated                    bool
	WhiteRating, BlackRating float64
}

// Rates reports whether the game changed its players' ratings: a rated
// game with a result (M16).
func (e Ended) Rates() bool { return e.Rated && e.Result != NoResult }

// EndedSince returns the games over whose last change was at since or
// after, in that order (the order the ratings changed in, for those
// that rate).
func (tx *Tx) EndedSince(ctx context.Context, since time.Time) ([]Ended, error) {
	rows, err := tx.query(ctx,
		"SELECT id, white, black, result, updated, rated, white_rating, black_rating FROM games"+
			" WHERE status = 'finished' AND updated >= ? ORDER BY updated, id", formatOptTime(since))
	if err != nil {
		return nil, fmt.Errorf("games over: %w", err)
	}
	defer rows.Close()
	var out []Ended
	for rows.Next() {
		var e Ended
		var result, at string
		var wr, br sql.NullFloat64
		if err := rows.Scan(&e.Game, &e.White, &e.Black, &result, &at, &e.Rated, &wr, &br); err != nil {
			return nil, fmt.Errorf("games over: %w", err)
		}
		if e.Result, err = parseResult(result); err != nil {
			return nil, err
		}
		if e.At, err = parseTime(at); err != nil {
			return nil, err
		}
		e.WhiteRating, e.BlackRating = wr.Float64, br.Float64
		out = append(out, e)
	}
	return out, rows.Err()
}

// FinishedVersion is the number of games over and the last change to
// one of them: it changes whenever a game ends (or one over changes).
func (tx *Tx) FinishedVersion(ctx context.Context) (n int, last time.Time, err error) {
	var at sql.NullString
	if err := tx.queryRow(ctx, "SELECT count(*), max(updated) FROM games WHERE status = 'finished'").Scan(&n, &at); err != nil {
		return 0, time.Time{}, fmt.Errorf("games over: %w", err)
	}
	last, err = parseNullTime(at)
	return n, last, err
}
