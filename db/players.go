package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Errors of CreatePlayer.
var (
	ErrHandleTaken  = errors.New("handle taken")
	ErrAddressTaken = errors.New("address already registered")
)

// Player is a registered player.
type Player struct {
	ID      int64
	Handle  string // as registered; unique ignoring case
	Address string // the registered mail address, lowercase
	Secret  string // the secret of the personal address
	Created time.Time

	// Glicko-2 rating (M16) and the number of rated games played.
	Rating     float64
	Deviation  float64
	Volatility float64
	RatedGames int

	Notify   Notify
	DigestAt time.Time // when the next digest is due, for NotifyDigest

	// Vacation (M17): the allowance left as of VacationAccrued, and the
	// end of the vacation being taken (zero for none).
	VacationLeft    time.Duration
	VacationAccrued time.Time
	VacationUntil   time.Time

	// Confirmed is set once a mail from the player proved their address
	// (M28); Welcomed is when they were last mailed their personal
	// address. Both are written only by ConfirmPlayer and SetWelcomed.
	Confirmed bool
	Welcomed  time.Time

	// Language is the code of the language of the player's mails (M40),
	// such as "ja"; "" for the server's default. SetLanguage writes it.
	Language string

	// TimeZone is the IANA name of the player's time zone (M64), such as
	// "Europe/Prague"; "" for UTC. WeekendsFrom is when the player began
	// to pause their weekends, zero while they play them: their clock
	// stands still from Saturday 00:00 to Monday 00:00 in their time
	// zone, in the weekends that begin after it. SetTime writes both.
	TimeZone     string
	WeekendsFrom time.Time
}

// PausesWeekends reports whether the player's clock stands still on
// their weekends (M64).
func (p Player) PausesWeekends() bool { return !p.WeekendsFrom.IsZero() }

// Notify is how a player hears of moves (M18). The zero value means
// NotifyEach.
type Notify string

const (
	NotifyEach   Notify = "each"   // a mail per move
	NotifyDigest Notify = "digest" // one daily mail of the games where it is the player's move
	NotifyOff    Notify = "off"    // no mail about moves
)

// New players' rating, and their vacation allowance (M17).
const (
	StartRating     = 1500
	StartDeviation  = 350
	StartVolatility = 0.06
	StartVacation   = 10 * 24 * time.Hour
)

const playerColumns = "id, handle, address, secret, created, rating, deviation, volatility, rated_games," +
	" notify, digest_at, vacation_left, vacation_accrued, vacation_until, confirmed, welcomed, language, timezone, weekends_from"

// playerColumnsP is playerColumns of the players table named p in a join
// (TestPlayerColumnsP keeps the two the same).
const playerColumnsP = "p.id, p.handle, p.address, p.secret, p.created, p.rating, p.deviation, p.volatility, p.rated_games," +
	" p.notify, p.digest_at, p.vacation_left, p.vacation_accrued, p.vacation_until, p.confirmed, p.welcomed, p.language," +
	" p.timezone, p.weekends_from"

// AddPlayer registers a player, not confirmed yet (ConfirmPlayer). It
// fails with ErrHandleTaken when the handle is taken (ignoring case) and
// with ErrAddressTaken when the address is registered already. The address
// is stored lowercase.
func (tx *Tx) AddPlayer(ctx context.Context, handle, address, secret string, at time.Time) (Player, error) {
	address = strings.ToLower(address)
	if _, err := tx.PlayerByHandle(ctx, handle); err == nil {
		return Player{}, fmt.Errorf("create player %q: %w", handle, ErrHandleTaken)
	} else if !errors.Is(err, ErrNotFound) {
		return Player{}, err
	}
	if _, err := tx.PlayerByAddress(ctx, address); err == nil {
		return Player{}, fmt.Errorf("create player %q: %w", handle, ErrAddressTaken)
	} else if !errors.Is(err, ErrNotFound) {
		return Player{}, err
	}
	p := Player{Handle: handle, Address: address, Secret: secret, Created: at.UTC(),
		Rating: StartRating, Deviation: StartDeviation, Volatility: StartVolatility, Notify: NotifyEach,
		VacationLeft: StartVacation, VacationAccrued: at.UTC()}
	err := tx.queryRow(ctx,
		"INSERT INTO players (handle, address, secret, created, vacation_accrued, confirmed) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
		p.Handle, p.Address, p.Secret, formatTime(p.Created), formatTime(p.VacationAccrued), false).Scan(&p.ID)
	if err != nil {
		return Player{}, fmt.Errorf("create player %q: %w", handle, err)
	}
	return p, nil
}

// SetHandle gives a player a new handle. A handle another player holds,
// in any case, is ErrHandleTaken.
func (tx *Tx) SetHandle(ctx context.Context, id int64, handle string) error {
	if p, err := tx.PlayerByHandle(ctx, handle); err == nil && p.ID != id {
		return fmt.Errorf("rename player %d to %q: %w", id, handle, ErrHandleTaken)
	} else if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	res, err := tx.exec(ctx, "UPDATE players SET handle = ? WHERE id = ?", handle, id)
	if err != nil {
		return fmt.Errorf("rename player %d to %q: %w", id, handle, err)
	}
	return mustAffect(res, fmt.Sprintf("player %d", id))
}

// KnownSecrets returns those of secrets that are a player's secret,
// each once.
func (tx *Tx) KnownSecrets(ctx context.Context, secrets []string) ([]string, error) {
	var out []string
	const batch = 64 // the values of one statement (knownSecrets)
	for len(secrets) > 0 {
		n := min(len(secrets), batch)
		part := secrets[:n]
		secrets = secrets[n:]
		args := make([]any, batch)
		for i := range args {
			args[i] = part[i%len(part)] // the batch padded with its own values
		}
		rows, err := tx.query(ctx, knownSecrets, args...)
		if err != nil {
			return nil, fmt.Errorf("known secrets: %w", err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				rows.Close()
				return nil, fmt.Errorf("known secrets: %w", err)
			}
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		if err := rows.Close(); err != nil {
			return nil, fmt.Errorf("known secrets: %w", err)
		}
	}
	return out, nil
}

// knownSecrets is KnownSecrets' statement, for 64 values: a constant
// (TestSQLOnlyThroughParameters), a batch padded with its own values.
const (
	eightValues  = "?, ?, ?, ?, ?, ?, ?, ?"
	knownSecrets = "SELECT DISTINCT secret FROM players WHERE secret IN (" + eightValues + ", " + eightValues + ", " +
		eightValues + ", " + eightValues + ", " + eightValues + ", " + eightValues + ", " + eightValues + ", " + eightValues + ")"
)

// DeleteProvisional deletes a player whose registration was never
// confirmed (M56), made before a time, who has nothing else in the
// database (no proven mail of theirs ever came, so none can be), and
// reports whether it did.
func (tx *Tx) DeleteProvisional(ctx context.Context, id int64, before time.Time) (bool, error) {
	res, err := tx.exec(ctx, "DELETE FROM players WHERE id = ? AND NOT confirmed AND created < ?"+
		" AND NOT EXISTS (SELECT 1 FROM games WHERE white = players.id OR black = players.id OR challenger = players.id)"+
		" AND NOT EXISTS (SELECT 1 FROM observers WHERE player = players.id)"+
		" AND NOT EXISTS (SELECT 1 FROM seeks WHERE player = players.id)"+
		" AND NOT EXISTS (SELECT 1 FROM conditionals WHERE player = players.id)"+
		" AND NOT EXISTS (SELECT 1 FROM notes WHERE player = players.id)"+
		" AND NOT EXISTS (SELECT 1 FROM tournaments WHERE director = players.id)"+
		" AND NOT EXISTS (SELECT 1 FROM tournament_players WHERE player = players.id)"+
		" AND NOT EXISTS (SELECT 1 FROM tournament_byes WHERE player = players.id)"+
		" AND NOT EXISTS (SELECT 1 FROM analysis_requests WHERE player = players.id)"+
		" AND NOT EXISTS (SELECT 1 FROM game_subjects WHERE player = players.id)",
		id, formatTime(before))
	if err != nil {
		return false, fmt.Errorf("delete provisional player %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Handles returns every player's handle, by id.
func (tx *Tx) Handles(ctx context.Context) (map[int64]string, error) {
	rows, err := tx.query(ctx, "SELECT id, handle FROM players")
	if err != nil {
		return nil, fmt.Errorf("handles: %w", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var h string
		if err := rows.Scan(&id, &h); err != nil {
			return nil, fmt.Errorf("handles: %w", err)
		}
		out[id] = h
	}
	return out, rows.Err()
}

// Player returns the player with the given id.
func (tx *Tx) Player(ctx context.Context, id int64) (Player, error) {
	row := tx.queryRow(ctx, "SELECT "+playerColumns+" FROM players WHERE id = ?", id)
	p, err := scanPlayer(row)
	if err != nil {
		return Player{}, notFound(err, fmt.Sprintf("player %d", id))
	}
	return p, nil
}

// PlayerByHandle returns the player with the given handle, ignoring case.
func (tx *Tx) PlayerByHandle(ctx context.Context, handle string) (Player, error) {
	row := tx.queryRow(ctx, tx.db.q.playerByHandle, handle)
	p, err := scanPlayer(row)
	if err != nil {
		return Player{}, notFound(err, fmt.Sprintf("player %q", handle))
	}
	return p, nil
}

// PlayerByAddress returns the player registered with the given address,
// ignoring case.
func (tx *Tx) PlayerByAddress(ctx context.Context, address string) (Player, error) {
	row := tx.queryRow(ctx, "SELECT "+playerColumns+" FROM players WHERE address = ?",
		strings.ToLower(address))
	p, err := scanPlayer(row)
	if err != nil {
		return Player{}, notFound(err, fmt.Sprintf("player at %q", address))
	}
	return p, nil
}

// SetSecret replaces the secret of a player's personal address.
func (tx *Tx) SetSecret(ctx context.Context, id int64, secret string) error {
	res, err := tx.exec(ctx, "UPDATE players SET secret = ? WHERE id = ?", secret, id)
	if err != nil {
		return fmt.Errorf("set secret of player %d: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("player %d", id))
}

// SetPlayer stores the rating, notification and vacation fields of p.
func (tx *Tx) SetPlayer(ctx context.Context, p Player) error {
	if p.Notify == "" {
		p.Notify = NotifyEach
	}
	res, err := tx.exec(ctx,
		"UPDATE players SET rating = ?, deviation = ?, volatility = ?, rated_games = ?, notify = ?, digest_at = ?,"+
			" vacation_left = ?, vacation_accrued = ?, vacation_until = ? WHERE id = ?",
		p.Rating, p.Deviation, p.Volatility, p.RatedGames, string(p.Notify), formatOptTime(p.DigestAt),
		seconds(p.VacationLeft), formatOptTime(p.VacationAccrued), formatOptTime(p.VacationUntil), p.ID)
	if err != nil {
		return fmt.Errorf("update player %d: %w", p.ID, err)
	}
	return mustAffect(res, fmt.Sprintf("player %d", p.ID))
}

// SetConfirmed records that a mail from the player proved their
// address (M28).
func (tx *Tx) SetConfirmed(ctx context.Context, id int64) error {
	res, err := tx.exec(ctx, "UPDATE players SET confirmed = ? WHERE id = ?", true, id)
	if err != nil {
		return fmt.Errorf("confirm player %d: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("player %d", id))
}

// SetWelcomed records when the player was mailed their personal address.
func (tx *Tx) SetWelcomed(ctx context.Context, id int64, at time.Time) error {
	res, err := tx.exec(ctx, "UPDATE players SET welcomed = ? WHERE id = ?", formatTime(at), id)
	if err != nil {
		return fmt.Errorf("welcome player %d: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("player %d", id))
}

// SetLanguage sets the language of the player's mails, a code such as
// "ja" ("" for the server's default).
func (tx *Tx) SetLanguage(ctx context.Context, id int64, language string) error {
	res, err := tx.exec(ctx, "UPDATE players SET language = ? WHERE id = ?", language, id)
	if err != nil {
		return fmt.Errorf("set language of player %d: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("player %d", id))
}

// SetTime sets the player's time zone (M64), an IANA name ("" for UTC),
// and when they began to pause their weekends (zero: they play them).
func (tx *Tx) SetTime(ctx context.Context, id int64, zone string, weekendsFrom time.Time) error {
	res, err := tx.exec(ctx, "UPDATE players SET timezone = ?, weekends_from = ? WHERE id = ?", zone, formatOptTime(weekendsFrom), id)
	if err != nil {
		return fmt.Errorf("set time zone of player %d: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("player %d", id))
}

// SubjectLanguage returns the language of the Subject of game's mails
// to player (M22): the one recorded with their first mail about it, or,
// when there is none yet, language, which it records.
func (tx *Tx) SubjectLanguage(ctx context.Context, game, player int64, language string) (string, error) {
	if _, err := tx.exec(ctx,
		"INSERT INTO game_subjects (game, player, language) VALUES (?, ?, ?) ON CONFLICT (game, player) DO NOTHING",
		game, player, language); err != nil {
		return "", fmt.Errorf("subject language of game %d for player %d: %w", game, player, err)
	}
	var got string
	if err := tx.queryRow(ctx, "SELECT language FROM game_subjects WHERE game = ? AND player = ?", game, player).Scan(&got); err != nil {
		return "", fmt.Errorf("subject language of game %d for player %d: %w", game, player, err)
	}
	return got, nil
}

// RatedPlayers returns the players with a rated game, the highest rating
// first.
func (tx *Tx) RatedPlayers(ctx context.Context) ([]Player, error) {
	return tx.queryPlayers(ctx, "rated players", tx.db.q.ratedPlayers)
}

// DigestsDue returns the players whose digest is due at now.
func (tx *Tx) DigestsDue(ctx context.Context, now time.Time) ([]Player, error) {
	return tx.queryPlayers(ctx, "digests due",
		"SELECT "+playerColumns+" FROM players WHERE notify = 'digest' AND digest_at <> '' AND digest_at <= ? ORDER BY id",
		formatTime(now))
}

// NextDigest returns when the next digest is due; ok is false when none is.
func (tx *Tx) NextDigest(ctx context.Context) (next time.Time, ok bool, err error) {
	var s sql.NullString
	err = tx.queryRow(ctx,
		"SELECT min(digest_at) FROM players WHERE notify = 'digest' AND digest_at <> ''").Scan(&s)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next digest: %w", err)
	}
	if !s.Valid {
		return time.Time{}, false, nil
	}
	next, err = parseTime(s.String)
	return next, err == nil, err
}

func (tx *Tx) queryPlayers(ctx context.Context, what, query string, args ...any) ([]Player, error) {
	rows, err := tx.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var ps []Player
	for rows.Next() {
		p, err := scanPlayer(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		ps = append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return ps, nil
}

type scanner interface {
	Scan(dest ...any) error
}

func scanPlayer(row scanner) (Player, error) {
	return scanPlayerWith(row)
}

// scanPlayerWith scans a player's columns and then more, into more.
func scanPlayerWith(row scanner, more ...any) (Player, error) {
	var p Player
	var created, notify, digestAt, accrued, until, welcomed, weekends string
	var vacation int64
	dest := []any{&p.ID, &p.Handle, &p.Address, &p.Secret, &created, &p.Rating, &p.Deviation, &p.Volatility,
		&p.RatedGames, &notify, &digestAt, &vacation, &accrued, &until, &p.Confirmed, &welcomed, &p.Language,
		&p.TimeZone, &weekends}
	err := row.Scan(append(dest, more...)...)
	if err != nil {
		return Player{}, err
	}
	if p.WeekendsFrom, err = parseOptTime(weekends); err != nil {
		return Player{}, err
	}
	if p.Welcomed, err = parseOptTime(welcomed); err != nil {
		return Player{}, err
	}
	p.Notify, p.VacationLeft = Notify(notify), fromSeconds(vacation)
	if p.Created, err = parseTime(created); err != nil {
		return Player{}, err
	}
	if p.DigestAt, err = parseOptTime(digestAt); err != nil {
		return Player{}, err
	}
	if p.VacationAccrued, err = parseOptTime(accrued); err != nil {
		return Player{}, err
	}
	p.VacationUntil, err = parseOptTime(until)
	return p, err
}
