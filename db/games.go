package db

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/congobymail/congo/rules"
)

// nullRating is the stored form of a rating at the end of a game: NULL
// for none.
func nullRating(r float64) sql.NullFloat64 {
	return sql.NullFloat64{Float64: r, Valid: r != 0}
}

// CountChallengesSince counts the games the player proposed since a time (a
// challenge, or a seek matched by another's).
func (tx *Tx) CountChallengesSince(ctx context.Context, player int64, since time.Time) (int, error) {
	var n int
	err := tx.queryRow(ctx, "SELECT count(*) FROM games WHERE challenger = ? AND created >= ?", player, formatTime(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("challenges of player %d: %w", player, err)
	}
	return n, nil
}

// CountActiveBetween counts the games being played between two players.
func (tx *Tx) CountActiveBetween(ctx context.Context, a, b int64) (int, error) {
	var n int
	err := tx.queryRow(ctx,
		"SELECT (SELECT count(*) FROM games WHERE white = ? AND black = ? AND status = 'active')"+
			" + (SELECT count(*) FROM games WHERE white = ? AND black = ? AND status = 'active')", a, b, b, a).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("games between players %d and %d: %w", a, b, err)
	}
	return n, nil
}

// Game is a game, from the challenge on.
type Game struct {
	ID         int64
	White      int64 // player ids
	Black      int64
	Challenger int64 // White or Black
	Status     Status
	Position   string // the current position, as the rules write it
	// Start is the position the game began from (M72), as the rules
	// write it; "" for the start of every other game (R3). Set when the
	// game is created.
	Start      string
	Result     Result
	Reason     rules.Reason // why the game ended; NoReason while it goes on
	ThreadRoot string       // Message-ID of the game's first mail
	Created    time.Time
	Updated    time.Time

	TimeControl string // "days=N" or "bank=D+I" (M11)
	Rated       bool
	// The clocks. The mover's clock started at ClockStart (in the future
	// while the mover is on vacation) with the mover's Left; the other
	// Left is what the other player has. TurnTime is the mover's Left
	// when the turn began, and Reminders the reminders sent since.
	WhiteLeft  time.Duration
	BlackLeft  time.Duration
	ClockStart time.Time
	TurnTime   time.Duration
	Reminders  int
	DrawOffer  int64 // the player who offers a draw; 0 for none
	Takeback   int64 // the player who asks to take back the last move; 0 for none
	// WhiteRating and BlackRating are the players' ratings when the game
	// ended rated; zero otherwise.
	WhiteRating, BlackRating float64
	// Tournament is the tournament the game is part of, in its Round; 0
	// for none. Set when the game is created.
	Tournament int64
	Round      int
	// ClockDue is when the clock loop next has something to do in the
	// game (a reminder, a loss on time): nothing of its clock falls
	// before it. Zero for never (a game over or adjourned). The game
	// package sets it with every change; a game being played stored
	// without it is looked at when its clock starts (ClockStart),
	// before which nothing falls either.
	ClockDue time.Time
	// Adjourned is when the operator adjourned the game; zero when it is
	// not adjourned. It is read with the game but written only by
	// SetAdjourned (SetGame leaves it alone). While a game is
	// adjourned its clock stands still and nobody moves in it.
	Adjourned time.Time
	// Pauses by agreement (M63): PauseAsked is the player who asks for
	// one (0 for none), Paused when the pause going on began (zero for
	// none; both clocks stand still meanwhile), PausedFor how long the
	// game's pauses that ended took.
	PauseAsked int64
	Paused     time.Time
	PausedFor  time.Duration
	// Given is the time the players gave each other (M65).
	Given time.Duration
	// TimeoutClaim is set when a player who runs out of time loses only
	// when the opponent claims the win (timeout=claim, M66); a game lost
	// on time ends by itself otherwise.
	TimeoutClaim bool
}

// IsPaused reports whether the game is paused by agreement (M63).
func (g Game) IsPaused() bool { return !g.Paused.IsZero() }

// StartPosition is the position the game began from, as the rules write
// it: Start, or the start of every game (R3).
func (g Game) StartPosition() string {
	if g.Start == "" {
		return rules.StartPosition
	}
	return g.Start
}

// IsAdjourned reports whether the operator adjourned the game (and has
// not resumed it).
func (g Game) IsAdjourned() bool { return !g.Adjourned.IsZero() }

// Challenged returns the id of the player who was challenged.
func (g Game) Challenged() int64 {
	if g.Challenger == g.White {
		return g.Black
	}
	return g.White
}

// Opponent returns the id of the other player of the game.
func (g Game) Opponent(player int64) int64 {
	if player == g.White {
		return g.Black
	}
	return g.White
}

// Has reports whether the player plays in the game.
func (g Game) Has(player int64) bool {
	return player == g.White || player == g.Black
}

const gameColumns = "id, white, black, challenger, status, position, result, reason, thread_root, created, updated," +
	" time_control, rated, white_left, black_left, clock_start, turn_time, reminders, draw_offer, takeback, adjourned," +
	" white_rating, black_rating, coalesce(tournament, 0), round, clock_due, pause_asked, paused, paused_for, given, timeout_claim, start"

// AddGame stores a new game and returns it with its id, the next number.
// Created and Updated are set to at.
func (tx *Tx) AddGame(ctx context.Context, g Game, at time.Time) (Game, error) {
	g.Created, g.Updated = at.UTC(), at.UTC()
	if g.TimeControl == "" {
		g.TimeControl = DefaultTimeControl
	}
	err := tx.queryRow(ctx,
		"INSERT INTO games (white, black, challenger, status, position, result, reason, thread_root, created, updated,"+
			" time_control, rated, white_left, black_left, clock_start, turn_time, reminders, draw_offer, takeback,"+
			" tournament, round, clock_due, timeout_claim, start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
		g.White, g.Black, g.Challenger, g.Status.String(), g.Position, g.Result.String(), reasonText(g.Reason),
		g.ThreadRoot, formatTime(g.Created), formatTime(g.Updated),
		g.TimeControl, g.Rated, seconds(g.WhiteLeft), seconds(g.BlackLeft), formatOptTime(g.ClockStart),
		seconds(g.TurnTime), g.Reminders, g.DrawOffer, g.Takeback,
		sql.NullInt64{Int64: g.Tournament, Valid: g.Tournament != 0}, g.Round, formatOptTime(clockDue(g)), g.TimeoutClaim, g.Start).Scan(&g.ID)
	if err != nil {
		return Game{}, fmt.Errorf("create game: %w", err)
	}
	g.ClockDue = clockDue(g)
	return g, nil
}

// SetGame stores everything of g but its players, challenger,
// creation time, tournament, adjournment and timeout_claim, and sets
// its Updated time.
func (tx *Tx) SetGame(ctx context.Context, g Game, at time.Time) error {
	res, err := tx.exec(ctx,
		"UPDATE games SET status = ?, position = ?, result = ?, reason = ?, thread_root = ?, updated = ?,"+
			" time_control = ?, rated = ?, white_left = ?, black_left = ?, clock_start = ?, turn_time = ?,"+
			" reminders = ?, draw_offer = ?, takeback = ?, white_rating = ?, black_rating = ?, clock_due = ?,"+
			" pause_asked = ?, paused = ?, paused_for = ?, given = ? WHERE id = ?",
		g.Status.String(), g.Position, g.Result.String(), reasonText(g.Reason), g.ThreadRoot, formatTime(at),
		g.TimeControl, g.Rated, seconds(g.WhiteLeft), seconds(g.BlackLeft), formatOptTime(g.ClockStart),
		seconds(g.TurnTime), g.Reminders, g.DrawOffer, g.Takeback, nullRating(g.WhiteRating), nullRating(g.BlackRating),
		formatOptTime(clockDue(g)), g.PauseAsked, formatOptTime(g.Paused), seconds(g.PausedFor), seconds(g.Given), g.ID)
	if err != nil {
		return fmt.Errorf("update game %d: %w", g.ID, err)
	}
	return mustAffect(res, fmt.Sprintf("game %d", g.ID))
}

// clockDue is g.ClockDue as stored: its clock start when it is being
// played and has none.
func clockDue(g Game) time.Time {
	if g.ClockDue.IsZero() && g.Status == Active && !g.IsAdjourned() {
		return g.ClockStart
	}
	return g.ClockDue
}

// Game returns the game with the given id.
func (tx *Tx) Game(ctx context.Context, id int64) (Game, error) {
	row := tx.queryRow(ctx, "SELECT "+gameColumns+" FROM games WHERE id = ?", id)
	g, err := scanGame(row)
	if err != nil {
		return Game{}, notFound(err, fmt.Sprintf("game %d", id))
	}
	return g, nil
}

// DefaultTimeControl is the time control of a game that names none.
const DefaultTimeControl = "days=3"

// ActiveGames returns the games being played, in the order they were
// created.
func (tx *Tx) ActiveGames(ctx context.Context) ([]Game, error) {
	return tx.queryGames(ctx, "active games", "SELECT "+gameColumns+" FROM games WHERE status = 'active' ORDER BY id")
}

// ActiveGamesOf returns the games a player is playing, by id.
func (tx *Tx) ActiveGamesOf(ctx context.Context, player int64) ([]Game, error) {
	return tx.queryGames(ctx, fmt.Sprintf("active games of player %d", player),
		"SELECT "+gameColumns+" FROM games WHERE (white = ? OR black = ?) AND status = 'active' ORDER BY id", player, player)
}

// ClocksDue returns up to limit games being played whose ClockDue is not
// after now, the earliest first.
func (tx *Tx) ClocksDue(ctx context.Context, now time.Time, limit int) ([]Game, error) {
	return tx.queryGames(ctx, "clocks due",
		"SELECT "+gameColumns+" FROM games WHERE status = 'active' AND clock_due <> '' AND clock_due <= ?"+
			" ORDER BY clock_due LIMIT ?", formatTime(now), limit)
}

// NextClockDue returns the earliest ClockDue of the games being played;
// ok is false when none has one.
func (tx *Tx) NextClockDue(ctx context.Context) (next time.Time, ok bool, err error) {
	var s sql.NullString
	err = tx.queryRow(ctx, "SELECT min(clock_due) FROM games WHERE status = 'active' AND clock_due <> ''").Scan(&s)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next clock due: %w", err)
	}
	if !s.Valid {
		return time.Time{}, false, nil
	}
	next, err = parseTime(s.String)
	return next, err == nil, err
}

// SetClockDue sets the ClockDue of a game alone (zero for never).
func (tx *Tx) SetClockDue(ctx context.Context, game int64, at time.Time) error {
	res, err := tx.exec(ctx, "UPDATE games SET clock_due = ? WHERE id = ?", formatOptTime(at), game)
	if err != nil {
		return fmt.Errorf("set the clock of game %d: %w", game, err)
	}
	return mustAffect(res, fmt.Sprintf("game %d", game))
}

// SetThreadRoot records the Message-ID of the first mail of a game's
// thread (M9), the game changed at at.
func (tx *Tx) SetThreadRoot(ctx context.Context, game int64, root string, at time.Time) error {
	res, err := tx.exec(ctx, "UPDATE games SET thread_root = ?, updated = ? WHERE id = ?", root, formatTime(at), game)
	if err != nil {
		return fmt.Errorf("set the thread of game %d: %w", game, err)
	}
	return mustAffect(res, fmt.Sprintf("game %d", game))
}

// queryGames runs a query for games.
func (tx *Tx) queryGames(ctx context.Context, what, query string, args ...any) ([]Game, error) {
	rows, err := tx.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var games []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		games = append(games, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return games, nil
}

// DeleteLastMove removes the last move of a game (a takeback).
func (tx *Tx) DeleteLastMove(ctx context.Context, game int64) error {
	res, err := tx.exec(ctx,
		"DELETE FROM moves WHERE game = ? AND ply = (SELECT max(ply) FROM moves WHERE game = ?)", game, game)
	if err != nil {
		return fmt.Errorf("delete last move of game %d: %w", game, err)
	}
	return mustAffect(res, fmt.Sprintf("last move of game %d", game))
}

// GamesOf returns the games a player plays in, in the order they were
// created.
func (tx *Tx) GamesOf(ctx context.Context, player int64) ([]Game, error) {
	rows, err := tx.query(ctx,
		"SELECT "+gameColumns+" FROM games WHERE white = ? OR black = ? ORDER BY id", player, player)
	if err != nil {
		return nil, fmt.Errorf("games of player %d: %w", player, err)
	}
	defer rows.Close()
	var games []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, fmt.Errorf("games of player %d: %w", player, err)
		}
		games = append(games, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("games of player %d: %w", player, err)
	}
	return games, nil
}

func scanGame(row scanner) (Game, error) {
	return scanGameWith(row)
}

// scanGameWith scans a game's columns and then more, into more.
func scanGameWith(row scanner, more ...any) (Game, error) {
	var g Game
	var status, result, reason, created, updated, clockStart, adjourned, due, paused string
	var whiteLeft, blackLeft, turnTime, pausedFor, given int64
	var whiteRating, blackRating sql.NullFloat64
	dest := []any{&g.ID, &g.White, &g.Black, &g.Challenger, &status, &g.Position, &result,
		&reason, &g.ThreadRoot, &created, &updated,
		&g.TimeControl, &g.Rated, &whiteLeft, &blackLeft, &clockStart, &turnTime, &g.Reminders, &g.DrawOffer, &g.Takeback,
		&adjourned, &whiteRating, &blackRating, &g.Tournament, &g.Round, &due,
		&g.PauseAsked, &paused, &pausedFor, &given, &g.TimeoutClaim, &g.Start}
	err := row.Scan(append(dest, more...)...)
	if err != nil {
		return Game{}, err
	}
	if g.Paused, err = parseOptTime(paused); err != nil {
		return Game{}, err
	}
	g.PausedFor, g.Given = fromSeconds(pausedFor), fromSeconds(given)
	if g.ClockDue, err = parseOptTime(due); err != nil {
		return Game{}, err
	}
	g.WhiteRating, g.BlackRating = whiteRating.Float64, blackRating.Float64
	if g.Adjourned, err = parseOptTime(adjourned); err != nil {
		return Game{}, err
	}
	g.WhiteLeft, g.BlackLeft, g.TurnTime = fromSeconds(whiteLeft), fromSeconds(blackLeft), fromSeconds(turnTime)
	if g.ClockStart, err = parseOptTime(clockStart); err != nil {
		return Game{}, err
	}
	if g.Status, err = parseStatus(status); err != nil {
		return Game{}, err
	}
	if g.Result, err = parseResult(result); err != nil {
		return Game{}, err
	}
	if g.Reason, err = parseReason(reason); err != nil {
		return Game{}, err
	}
	if g.Created, err = parseTime(created); err != nil {
		return Game{}, err
	}
	if g.Updated, err = parseTime(updated); err != nil {
		return Game{}, err
	}
	return g, nil
}

// Move is one move of a game, as stored.
type Move struct {
	Game     int64
	Ply      int    // 1 for White's first move, 2 for Black's, ...
	Move     string // canonical notation
	Position string // the position after the move
	At       time.Time
	Message  string // what the mover wrote with it, if anything
	// TimeLeft is the time the mover had left when making it, before
	// the increment it earned; zero when not known.
	TimeLeft time.Duration
}

// AddMove stores a move.
func (tx *Tx) AddMove(ctx context.Context, m Move) error {
	var left sql.NullInt64
	if m.TimeLeft > 0 {
		left = sql.NullInt64{Int64: int64(m.TimeLeft), Valid: true}
	}
	_, err := tx.exec(ctx, "INSERT INTO moves (game, ply, move, position, at, comment, time_left) VALUES (?, ?, ?, ?, ?, ?, ?)",
		m.Game, m.Ply, m.Move, m.Position, formatTime(m.At), m.Message, left)
	if err != nil {
		return fmt.Errorf("add move %d of game %d: %w", m.Ply, m.Game, err)
	}
	return nil
}

// Moves returns the moves of a game in order.
func (tx *Tx) Moves(ctx context.Context, game int64) ([]Move, error) {
	rows, err := tx.query(ctx,
		"SELECT game, ply, move, position, at, comment, time_left FROM moves WHERE game = ? ORDER BY ply", game)
	if err != nil {
		return nil, fmt.Errorf("moves of game %d: %w", game, err)
	}
	defer rows.Close()
	var moves []Move
	for rows.Next() {
		var m Move
		var at string
		var left sql.NullInt64
		if err := rows.Scan(&m.Game, &m.Ply, &m.Move, &m.Position, &at, &m.Message, &left); err != nil {
			return nil, fmt.Errorf("moves of game %d: %w", game, err)
		}
		if m.At, err = parseTime(at); err != nil {
			return nil, err
		}
		m.TimeLeft = time.Duration(left.Int64)
		moves = append(moves, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("moves of game %d: %w", game, err)
	}
	return moves, nil
}
