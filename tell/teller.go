// Package tell turns what happens into mails: a Work is what one
// transaction does, and queues the mails its events cause, one story per
// game told in one mail to each person it concerns (M23); the Teller
// holds what every Work needs (the server's addresses and name, the
// players' languages, the web pages, the outbox) and is made once.
package tell

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/templates"
)

// Teller is what the Works of a server share: the settings it mails by,
// the outbox, and the rooms' reactions to what happens.
type Teller struct {
	settings      config.Settings
	local, domain string // the two halves of the server's address
	address       string
	robot         string // the robot's handle; "" for none
	publicURL     string // the web's pages, ending in "/"; "" for none
	language      lang.Code
	outbox        *outbox.Outbox
	rand          io.Reader
	log           *slog.Logger

	// GamesEnded, when set, is told the games of tournaments that a
	// Work's events ended, and moves their tournaments on (the tournament
	// room's director.GamesEnded): told in the Work, it mails as the
	// Work does.
	GamesEnded func(ctx context.Context, w *Work, games []db.Game) error
}

// New returns a Teller for settings, whose Address must be local@domain
// without a +tag (the players' personal addresses are local+secret@domain).
// The settings are taken as they are, but for the defaults of what they
// leave zero: Name "Congo", Hostname the domain of Address, the caps of
// config.Defaults, the language English.
func New(settings config.Settings, ob *outbox.Outbox, rand io.Reader, log *slog.Logger) (*Teller, error) {
	local, domain, ok := strings.Cut(strings.ToLower(settings.Address), "@")
	if !ok || local == "" || domain == "" || strings.ContainsAny(local, "+@ <>") || strings.ContainsAny(domain, "@ <>") {
		return nil, fmt.Errorf("address %q is not of the form local@domain without +", settings.Address)
	}
	d := config.Defaults()
	s := &settings
	s.Address = local + "@" + domain
	if s.Name == "" {
		s.Name = d.Name
	}
	if s.Hostname == "" {
		s.Hostname = domain
	}
	for _, v := range []struct {
		p   *int
		def int
	}{{&s.RobotGames, d.RobotGames}, {&s.ChallengesPerDay, d.ChallengesPerDay},
		{&s.AnalysesPerDay, d.AnalysesPerDay}} {
		if *v.p == 0 {
			*v.p = v.def
		}
	}
	if s.AnalysisNodes <= 0 {
		s.AnalysisNodes = d.AnalysisNodes
	}
	t := &Teller{settings: *s, local: local, domain: domain, address: s.Address, robot: s.RobotHandle(),
		publicURL: s.PublicURL, language: s.Lang(), outbox: ob, rand: rand, log: log}
	if t.publicURL != "" && !strings.HasSuffix(t.publicURL, "/") {
		t.publicURL += "/"
	}
	return t, nil
}

// Settings are the settings the Teller mails by, with their defaults.
func (t *Teller) Settings() *config.Settings { return &t.settings }

// Address is the server's own address, local@domain.
func (t *Teller) Address() string { return t.address }

// Outbox is where the Works queue their mails.
func (t *Teller) Outbox() *outbox.Outbox { return t.outbox }

// Log is where the rooms log what they do.
func (t *Teller) Log() *slog.Logger { return t.log }

// Rand is the server's randomness: personal addresses' secrets, the
// colours of a seek's game.
func (t *Teller) Rand() io.Reader { return t.rand }

// Robot is the robot's handle, "" when there is none.
func (t *Teller) Robot() string { return t.robot }

// Personal returns a player's personal address (M6).
func (t *Teller) Personal(p db.Player) string {
	return t.local + "+" + p.Secret + "@" + t.domain
}

// IsOwn reports whether addr is one of the server's addresses: its own
// local part, with or without a +tag, at its domain.
func (t *Teller) IsOwn(addr string) bool {
	local, domain, ok := CutAddress(addr)
	if !ok || !strings.EqualFold(domain, t.domain) {
		return false
	}
	base, _, _ := strings.Cut(local, "+")
	return strings.EqualFold(base, t.local)
}

// PersonalSecret returns the secret of addr when it is a personal
// address of the server's, local+secret@domain.
func (t *Teller) PersonalSecret(addr string) (string, bool) {
	local, domain, ok := CutAddress(addr)
	if !ok || !strings.EqualFold(domain, t.domain) {
		return "", false
	}
	base, secret, ok := strings.Cut(local, "+")
	if !ok || !strings.EqualFold(base, t.local) {
		return "", false
	}
	return secret, true
}

// Taps are the one-tap moves of a board mail of st to player to (M71):
// their legal moves, each a link to their personal address, when they
// are to move in the game being played (not adjourned); nil otherwise,
// and for the robot, which reads no mail.
func (t *Teller) Taps(st *game.State, to db.Player) *templates.Taps {
	if !st.Active() || st.Game.IsAdjourned() || st.ToMove().ID != to.ID || t.IsRobot(to) || st.Pos.Outcome().Over() {
		return nil
	}
	return templates.TapsOf(st.Pos, t.Personal(to))
}

// CutAddress splits an address at its last "@".
func CutAddress(addr string) (local, domain string, ok bool) {
	i := strings.LastIndexByte(addr, '@')
	if i <= 0 || i == len(addr)-1 {
		return "", "", false
	}
	return addr[:i], addr[i+1:], true
}

// IsRobot reports whether p is the robot player, and the robot plays.
func (t *Teller) IsRobot(p db.Player) bool {
	return t.robot != "" && p.Address == RobotAddress(t.robot)
}

// robotDomain is the domain of the robot's address. Mail to .invalid
// cannot be delivered (RFC 2606), and none is ever queued: the robot is
// never mailed, and mail from such an address is never answered.
const robotDomain = "robot.invalid"

// RobotAddress is the address the robot with the given handle is
// registered under.
func RobotAddress(handle string) string {
	return strings.ToLower(handle) + "@" + robotDomain
}

// IsRobotAddress reports whether addr is a robot's address, one never
// mailed.
func IsRobotAddress(addr string) bool {
	i := strings.LastIndexByte(addr, '@')
	return i > 0 && strings.EqualFold(addr[i+1:], robotDomain)
}

// GamePage is the address of a game's page on the web (M43); "" when the
// server has no pages.
func (t *Teller) GamePage(id int64) string {
	if t.publicURL == "" {
		return ""
	}
	return t.publicURL + "games/" + strconv.FormatInt(id, 10)
}

// GamePageFor is the address of a game's page on the web for player p:
// from Black's side when p plays black in it (?side=black), so that the
// link in a mail to Black shows Black's view; "" when the server has no
// pages.
func (t *Teller) GamePageFor(g db.Game, p db.Player) string {
	page := t.GamePage(g.ID)
	if page != "" && g.Black == p.ID && g.White != p.ID {
		page += "?side=black"
	}
	return page
}

// Lang is the language of the mails to p (M40): their own, or the
// server's default for a player who has none.
func (t *Teller) Lang(p db.Player) lang.Code {
	return lang.Code(p.Language).Or(t.language)
}

// Language is the server's default language (M40).
func (t *Teller) Language() lang.Code { return t.language }

// Tx runs fn in a transaction of its own, as a Work at the time now, and
// then wakes the outbox when it queued mail. It returns what fn returned.
func (t *Teller) Tx(ctx context.Context, store *db.DB, now time.Time, fn func(w *Work) error) (queued int, err error) {
	err = store.Tx(ctx, func(tx *db.Tx) error {
		w := t.NewWork(tx, now)
		if err := fn(w); err != nil {
			return err
		}
		queued = w.Queued()
		return nil
	})
	if err != nil {
		return 0, err
	}
	if queued > 0 {
		t.outbox.Wake()
	}
	return queued, nil
}
