package db

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// TournamentStatus is where a tournament is in its life. The zero value
// means none.
type TournamentStatus uint8

const (
	NoTournamentStatus  TournamentStatus = iota
	TournamentOpen                       // open for joining
	TournamentRunning                    // its games are being played
	TournamentOver                       // every game has ended
	TournamentCancelled                  // called off before the start
)

var tournamentStatusNames = [...]string{
	TournamentOpen: "open", TournamentRunning: "running", TournamentOver: "finished", TournamentCancelled: "cancelled",
}

func (s TournamentStatus) String() string {
	if s == NoTournamentStatus || int(s) >= len(tournamentStatusNames) {
		return fmt.Sprintf("TournamentStatus(%d)", uint8(s))
	}
	return tournamentStatusNames[s]
}

func parseTournamentStatus(s string) (TournamentStatus, error) {
	for st, name := range tournamentStatusNames {
		if name != "" && name == s {
			return TournamentStatus(st), nil
		}
	}
	return NoTournamentStatus, fmt.Errorf("unknown tournament status %q", s)
}

// Tournament is a tournament, from its creation on.
type Tournament struct {
	ID          int64
	Name        string
	System      string // "roundrobin" or "swiss"
	Director    int64  // the player who created it
	Status      TournamentStatus
	Rounds      int  // of a Swiss; 0 before the start for the default
	Double      bool // a round robin played twice
	TimeControl string
	Rated       bool
	Round       int // the round being played; 0 before the start
	Created     time.Time
	Updated     time.Time
	// Pauses is set when the tournament's games may be paused by
	// agreement (M63); NoVacation when vacations do not stop their
	// clocks (M67). Both are set when it is created.
	Pauses     bool
	NoVacation bool
}

// TournamentPlayer is a player of a tournament.
type TournamentPlayer struct {
	Player
	Joined    time.Time
	Withdrawn time.Time // zero while they play on
}

const tournamentColumns = "id, name, system, director, status, rounds, double, time_control, rated, round, created, updated," +
	" pauses, novacation"

// AddTournament stores a new tournament, open for joining, and returns
// it with its id.
func (tx *Tx) AddTournament(ctx context.Context, t Tournament, at time.Time) (Tournament, error) {
	t.Status, t.Created, t.Updated = TournamentOpen, at.UTC(), at.UTC()
	err := tx.queryRow(ctx,
		"INSERT INTO tournaments (name, system, director, status, rounds, double, time_control, rated, round, created, updated,"+
			" pauses, novacation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
		t.Name, t.System, t.Director, t.Status.String(), t.Rounds, t.Double, t.TimeControl, t.Rated, t.Round,
		formatTime(t.Created), formatTime(t.Updated), t.Pauses, t.NoVacation).Scan(&t.ID)
	if err != nil {
		return Tournament{}, fmt.Errorf("create tournament: %w", err)
	}
	return t, nil
}

// SetTournament stores the status, rounds and round of t, and sets its
// Updated time.
func (tx *Tx) SetTournament(ctx context.Context, t Tournament, at time.Time) error {
	res, err := tx.exec(ctx, "UPDATE tournaments SET status = ?, rounds = ?, round = ?, updated = ? WHERE id = ?",
		t.Status.String(), t.Rounds, t.Round, formatTime(at), t.ID)
	if err != nil {
		return fmt.Errorf("update tournament %d: %w", t.ID, err)
	}
	return mustAffect(res, fmt.Sprintf("tournament %d", t.ID))
}

// Tournament returns the tournament with the given id.
func (tx *Tx) Tournament(ctx context.Context, id int64) (Tournament, error) {
	t, err := scanTournament(tx.queryRow(ctx, "SELECT "+tournamentColumns+" FROM tournaments WHERE id = ?", id))
	if err != nil {
		return Tournament{}, notFound(err, fmt.Sprintf("tournament %d", id))
	}
	return t, nil
}

// TournamentsIn returns the tournaments with the given status, in the
// order they were created.
func (tx *Tx) TournamentsIn(ctx context.Context, status TournamentStatus) ([]Tournament, error) {
	rows, err := tx.query(ctx, "SELECT "+tournamentColumns+" FROM tournaments WHERE status = ? ORDER BY id", status.String())
	if err != nil {
		return nil, fmt.Errorf("tournaments %s: %w", status, err)
	}
	defer rows.Close()
	var out []Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, fmt.Errorf("tournaments %s: %w", status, err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func scanTournament(row scanner) (Tournament, error) {
	var t Tournament
	var status, created, updated string
	err := row.Scan(&t.ID, &t.Name, &t.System, &t.Director, &status, &t.Rounds, &t.Double, &t.TimeControl, &t.Rated,
		&t.Round, &created, &updated, &t.Pauses, &t.NoVacation)
	if err != nil {
		return Tournament{}, err
	}
	if t.Status, err = parseTournamentStatus(status); err != nil {
		return Tournament{}, err
	}
	if t.Created, err = parseTime(created); err != nil {
		return Tournament{}, err
	}
	t.Updated, err = parseTime(updated)
	return t, err
}

// ErrJoined is returned by JoinTournament for a player who has joined
// already.
var ErrJoined = errors.New("joined already")

// AddTournamentPlayer adds a player to a tournament.
func (tx *Tx) AddTournamentPlayer(ctx context.Context, tournament, player int64, at time.Time) error {
	res, err := tx.exec(ctx, "INSERT INTO tournament_players (tournament, player, joined) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
		tournament, player, formatTime(at))
	if err != nil {
		return fmt.Errorf("join tournament %d: %w", tournament, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.Join(ErrJoined, err)
	}
	return nil
}

// DeleteTournamentPlayer removes a player from a tournament that has not
// started; it reports false when they were not in it.
func (tx *Tx) DeleteTournamentPlayer(ctx context.Context, tournament, player int64) (bool, error) {
	res, err := tx.exec(ctx, "DELETE FROM tournament_players WHERE tournament = ? AND player = ?", tournament, player)
	if err != nil {
		return false, fmt.Errorf("leave tournament %d: %w", tournament, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// SetWithdrawn records that a player left a tournament after
// its start (M38).
func (tx *Tx) SetWithdrawn(ctx context.Context, tournament, player int64, at time.Time) error {
	res, err := tx.exec(ctx, "UPDATE tournament_players SET withdrawn = ? WHERE tournament = ? AND player = ?",
		formatTime(at), tournament, player)
	if err != nil {
		return fmt.Errorf("withdraw from tournament %d: %w", tournament, err)
	}
	return mustAffect(res, fmt.Sprintf("player %d of tournament %d", player, tournament))
}

// TournamentPlayers returns the players of a tournament, in the order
// they joined.
func (tx *Tx) TournamentPlayers(ctx context.Context, tournament int64) ([]TournamentPlayer, error) {
	rows, err := tx.query(ctx,
		"SELECT "+playerColumnsP+", t.joined, t.withdrawn FROM tournament_players AS t JOIN players AS p ON p.id = t.player"+
			" WHERE t.tournament = ? ORDER BY t.joined, p.id", tournament)
	if err != nil {
		return nil, fmt.Errorf("players of tournament %d: %w", tournament, err)
	}
	defer rows.Close()
	var out []TournamentPlayer
	for rows.Next() {
		var joined, withdrawn string
		var tp TournamentPlayer
		p, err := scanPlayerWith(rows, &joined, &withdrawn)
		if err != nil {
			return nil, fmt.Errorf("players of tournament %d: %w", tournament, err)
		}
		tp.Player = p
		if tp.Joined, err = parseTime(joined); err != nil {
			return nil, err
		}
		if tp.Withdrawn, err = parseOptTime(withdrawn); err != nil {
			return nil, err
		}
		out = append(out, tp)
	}
	return out, rows.Err()
}

// TournamentsOf returns the ids of the tournaments a player is in, not
// cancelled, the newest first.
func (tx *Tx) TournamentsOf(ctx context.Context, player int64) ([]int64, error) {
	rows, err := tx.query(ctx,
		"SELECT t.id FROM tournament_players AS p JOIN tournaments AS t ON t.id = p.tournament"+
			" WHERE p.player = ? AND t.status <> 'cancelled' ORDER BY t.id DESC", player)
	if err != nil {
		return nil, fmt.Errorf("tournaments of player %d: %w", player, err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// TournamentGames returns the games of a tournament, by round, then in
// the order they were created.
func (tx *Tx) TournamentGames(ctx context.Context, tournament int64) ([]Game, error) {
	return tx.queryGames(ctx, fmt.Sprintf("games of tournament %d", tournament),
		"SELECT "+gameColumns+" FROM games WHERE tournament = ? ORDER BY round, id", tournament)
}

// SetBye records the player with no game in a round.
func (tx *Tx) SetBye(ctx context.Context, tournament int64, round int, player int64) error {
	_, err := tx.exec(ctx, "INSERT INTO tournament_byes (tournament, round, player) VALUES (?, ?, ?)"+
		" ON CONFLICT (tournament, round) DO UPDATE SET player = excluded.player",
		tournament, round, player)
	if err != nil {
		return fmt.Errorf("bye in round %d of tournament %d: %w", round, tournament, err)
	}
	return nil
}

// Byes returns the player with a bye in each round of a tournament, by
// round.
func (tx *Tx) Byes(ctx context.Context, tournament int64) (map[int]int64, error) {
	rows, err := tx.query(ctx, "SELECT round, player FROM tournament_byes WHERE tournament = ?", tournament)
	if err != nil {
		return nil, fmt.Errorf("byes of tournament %d: %w", tournament, err)
	}
	defer rows.Close()
	byes := map[int]int64{}
	for rows.Next() {
		var r int
		var p int64
		if err := rows.Scan(&r, &p); err != nil {
			return nil, err
		}
		byes[r] = p
	}
	return byes, rows.Err()
}
