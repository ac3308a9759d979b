package db

import (
	"context"
	"errors"
	"fmt"
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
}

const playerColumns = "id, handle, address, secret, created"

// CreatePlayer registers a player. It fails with ErrHandleTaken when the
// handle is taken (ignoring case) and with ErrAddressTaken when the address
// is registered already. The address is stored lowercase.
func (tx *Tx) CreatePlayer(ctx context.Context, handle, address, secret string, at time.Time) (Player, error) {
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
	p := Player{Handle: handle, Address: address, Secret: secret, Created: at.UTC()}
	err := tx.tx.QueryRowContext(ctx,
		"INSERT INTO players (handle, address, secret, created) VALUES (?, ?, ?, ?) RETURNING id",
		p.Handle, p.Address, p.Secret, formatTime(p.Created)).Scan(&p.ID)
	if err != nil {
		return Player{}, fmt.Errorf("create player %q: %w", handle, err)
	}
	return p, nil
}

// Player returns the player with the given id.
func (tx *Tx) Player(ctx context.Context, id int64) (Player, error) {
	row := tx.tx.QueryRowContext(ctx, "SELECT "+playerColumns+" FROM players WHERE id = ?", id)
	p, err := scanPlayer(row)
	if err != nil {
		return Player{}, notFound(err, fmt.Sprintf("player %d", id))
	}
	return p, nil
}

// PlayerByHandle returns the player with the given handle, ignoring case.
func (tx *Tx) PlayerByHandle(ctx context.Context, handle string) (Player, error) {
	row := tx.tx.QueryRowContext(ctx, "SELECT "+playerColumns+" FROM players WHERE handle = ?", handle)
	p, err := scanPlayer(row)
	if err != nil {
		return Player{}, notFound(err, fmt.Sprintf("player %q", handle))
	}
	return p, nil
}

// PlayerByAddress returns the player registered with the given address,
// ignoring case.
func (tx *Tx) PlayerByAddress(ctx context.Context, address string) (Player, error) {
	row := tx.tx.QueryRowContext(ctx, "SELECT "+playerColumns+" FROM players WHERE address = ?",
		strings.ToLower(address))
	p, err := scanPlayer(row)
	if err != nil {
		return Player{}, notFound(err, fmt.Sprintf("player at %q", address))
	}
	return p, nil
}

// SetSecret replaces the secret of a player's personal address.
func (tx *Tx) SetSecret(ctx context.Context, id int64, secret string) error {
	res, err := tx.tx.ExecContext(ctx, "UPDATE players SET secret = ? WHERE id = ?", secret, id)
	if err != nil {
		return fmt.Errorf("set secret of player %d: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("player %d", id))
}

type scanner interface {
	Scan(dest ...any) error
}

func scanPlayer(row scanner) (Player, error) {
	var p Player
	var created string
	if err := row.Scan(&p.ID, &p.Handle, &p.Address, &p.Secret, &created); err != nil {
		return Player{}, err
	}
	var err error
	p.Created, err = parseTime(created)
	return p, err
}
