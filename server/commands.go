package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

// register registers the sender, or reminds a registered sender of their
// handle and personal address.
func (h *handling) register(ctx context.Context, c parser.Command) error {
	if h.sender != nil {
		r := templates.Registered{Handle: h.sender.Handle, Personal: h.s.personal(*h.sender), Already: true}
		if !strings.EqualFold(c.Handle, h.sender.Handle) {
			r.Asked = c.Handle
		}
		h.answer(r)
		h.note("register: already " + h.sender.Handle)
		return nil
	}
	if !parser.ValidHandle(c.Handle) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.BadHandle, Handle: c.Handle})
		return nil
	}
	secret, err := h.s.newSecret()
	if err != nil {
		return err
	}
	p, err := h.tx.CreatePlayer(ctx, c.Handle, h.mail.From, secret, h.now)
	if errors.Is(err, db.ErrHandleTaken) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.HandleTaken, Handle: c.Handle})
		return nil
	}
	if err != nil {
		return err
	}
	h.sender = &p
	h.answer(templates.Registered{Handle: p.Handle, Personal: h.s.personal(p)})
	h.note("register " + p.Handle)
	return nil
}

// newKey gives the sender a new secret; the old one stops working.
func (h *handling) newKey(ctx context.Context) error {
	secret, err := h.s.newSecret()
	if err != nil {
		return err
	}
	if err := h.tx.SetSecret(ctx, h.sender.ID, secret); err != nil {
		return err
	}
	h.sender.Secret = secret
	h.answer(templates.NewKey{Personal: h.s.personal(*h.sender)})
	h.note("newkey")
	return nil
}

// board sends the board of one of the sender's games, in the game's
// thread; with #N, the position after black's move N (M15).
func (h *handling) board(ctx context.Context, c parser.Command) error {
	gs, ok, err := h.visibleGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	// One mail, one board of each position asked for; and boards count
	// against the reply limit like any answer, since board needs no proof.
	key := fmt.Sprintf("%d#%v%d", gs.g.ID, c.Past, c.At)
	if h.boards[key] {
		return nil
	}
	if h.boards == nil {
		h.boards = map[string]bool{}
	}
	h.boards[key] = true
	if over, err := h.overReplyLimit(ctx, h.sender.Address); over || err != nil {
		return err
	}
	data := templates.BoardData{Game: gs.template(), To: h.sender.Handle, Past: c.Past, At: c.At}
	side := rules.White
	if gs.g.Has(h.sender.ID) {
		side = gs.colorOf(h.sender.ID)
	}
	data.Board = gs.view(side)
	if c.Past {
		pos, ok, err := h.positionAfter(ctx, gs, c.At)
		if err != nil {
			return err
		}
		if !ok {
			h.fail(h.gameError(c, gs, templates.NoSuchMove, fmt.Sprintf("#%d", c.At)))
			return nil
		}
		data.Board = boardView(pos, side)
	}
	subject, body, html, err := templates.BoardMail(data)
	if err != nil {
		return err
	}
	h.note(fmt.Sprintf("board %d", gs.g.ID))
	_, err = h.gameMail(ctx, *h.sender, gs.g, subject, body, html)
	return err
}

// positionAfter is the position of a game after black's move n (M15):
// the start for 0; ok is false when the game has not come so far.
func (h *handling) positionAfter(ctx context.Context, gs gameState, n int) (rules.Position, bool, error) {
	if n == 0 {
		return rules.Start(), true, nil
	}
	moves, err := h.tx.Moves(ctx, gs.g.ID)
	if err != nil || 2*n > len(moves) {
		return rules.Position{}, false, err
	}
	pos, err := rules.ParsePosition(moves[2*n-1].Position)
	return pos, err == nil, err
}

// challenge starts a game: the challenged player is asked to accept it.
func (h *handling) challenge(ctx context.Context, c parser.Command) error {
	opponent, err := h.tx.PlayerByHandle(ctx, c.Handle)
	if errors.Is(err, db.ErrNotFound) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchPlayer, Handle: c.Handle})
		return nil
	}
	if err != nil {
		return err
	}
	if opponent.ID == h.sender.ID {
		h.fail(templates.Error{Line: c.Line, Problem: templates.ChallengeSelf})
		return nil
	}
	robotGame := h.s.isRobot(opponent)
	switch {
	case isRobotAddress(opponent.Address) && !robotGame: // a robot that no longer plays
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchPlayer, Handle: c.Handle})
		return nil
	case c.Level != 0 && !robotGame:
		h.fail(templates.Error{Line: c.Line, Problem: templates.LevelForHuman, Handle: opponent.Handle})
		return nil
	}
	tc := c.TimeControl
	if tc.Days == 0 {
		tc = defaultControl
	}
	g := db.Game{White: h.sender.ID, Black: opponent.ID, Challenger: h.sender.ID, Status: db.Challenged,
		Position: rules.StartPosition, TimeControl: tc.String(), Rated: !c.Unrated}
	if c.Colour == parser.Black {
		g.White, g.Black = opponent.ID, h.sender.ID
	}
	if robotGame {
		return h.challengeRobot(ctx, g, opponent, c.Level)
	}
	if g, err = h.tx.CreateGame(ctx, g, h.now); err != nil {
		return err
	}
	gs, err := h.gameState(ctx, g)
	if err != nil {
		return err
	}
	data := templates.ChallengeData{Game: gs.template(), To: opponent.Handle, Challenger: h.sender.Handle,
		Challenged: opponent.Handle, Comment: h.commentFor()}

	// The mail to the challenged player starts the game's thread (M9).
	subject, body, err := templates.Challenge(data)
	if err != nil {
		return err
	}
	if gs.g.ThreadRoot, err = h.gameMail(ctx, opponent, gs.g, subject, body, ""); err != nil {
		return err
	}
	if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
		return err
	}
	data.To, data.Comment = h.sender.Handle, nil
	if subject, body, err = templates.ChallengeSent(data); err != nil {
		return err
	}
	h.note(fmt.Sprintf("challenge %s: game %d", opponent.Handle, g.ID))
	_, err = h.gameMail(ctx, *h.sender, gs.g, subject, body, "")
	return err
}

// challengeRobot starts game g against the robot, which accepts every
// challenge at once: the challenger gets the start board, and the robot
// plays at level (robot.DefaultLevel for 0).
func (h *handling) challengeRobot(ctx context.Context, g db.Game, me db.Player, level int) error {
	if level == 0 {
		level = robot.DefaultLevel
	}
	g.Status = db.Active
	g, err := h.tx.CreateGame(ctx, g, h.now)
	if err != nil {
		return err
	}
	if err := h.tx.SetRobotLevel(ctx, g.ID, level); err != nil {
		return err
	}
	gs, err := h.gameState(ctx, g)
	if err != nil {
		return err
	}
	gs.startClocks()
	if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
		return err
	}
	h.note(fmt.Sprintf("challenge %s: game %d, level %d", me.Handle, g.ID, level))
	if h.robotWaits(&gs) {
		return nil // the robot plays white: its first move's mail tells all (robotPlay)
	}
	return h.announce(ctx, &gs, templates.BoardData{Accepted: true, Level: level, By: me.Handle}, &me, nil, false)
}

// accept starts a game the sender was challenged to.
func (h *handling) accept(ctx context.Context, c parser.Command) error {
	gs, ok, err := h.challengedGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	gs.g.Status = db.Active
	gs.startClocks()
	if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
		return err
	}
	h.note(fmt.Sprintf("accept %d", gs.g.ID))
	return h.announce(ctx, &gs, templates.BoardData{Accepted: true}, h.sender, h.commentFor(), false)
}

// decline refuses a game the sender was challenged to.
func (h *handling) decline(ctx context.Context, c parser.Command) error {
	gs, ok, err := h.challengedGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	gs.g.Status = db.Declined
	if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
		return err
	}
	h.note(fmt.Sprintf("decline %d", gs.g.ID))
	challenger := gs.opponent(h.sender.ID)
	data := templates.ChallengeData{Game: gs.template(), Challenger: challenger.Handle, Challenged: h.sender.Handle}
	for _, to := range []db.Player{challenger, *h.sender} {
		data.To, data.Comment = to.Handle, nil
		if to.ID != h.sender.ID {
			data.Comment = h.commentFor()
		}
		subject, body, err := templates.ChallengeDeclined(data)
		if err != nil {
			return err
		}
		if _, err := h.gameMail(ctx, to, gs.g, subject, body, ""); err != nil {
			return err
		}
	}
	return nil
}

// move plays a move in one of the sender's games.
func (h *handling) move(ctx context.Context, c parser.Command) error {
	gs, ok, err := h.activeGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	if gs.pos.Turn() != gs.colorOf(h.sender.ID) {
		h.fail(h.gameError(c, gs, templates.NotYourTurn, ""))
		return nil
	}
	if c.MoveNumber != 0 && c.MoveNumber != gs.pos.MoveNumber() {
		h.fail(h.gameError(c, gs, templates.StaleMoveNumber, ""))
		return nil
	}
	m, err := gs.pos.ParseMove(c.Move)
	if err != nil {
		// A *rules.MoveError says what that piece can do instead.
		h.fail(h.gameError(c, gs, templates.IllegalMove, err.Error()))
		return nil
	}
	return h.play(ctx, &gs, *h.sender, m, h.commentFor(), false)
}

// resign ends one of the sender's games in the opponent's favour.
func (h *handling) resign(ctx context.Context, c parser.Command) error {
	gs, ok, err := h.activeGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	if err := h.finish(ctx, &gs, resultOf(gs.colorOf(h.sender.ID).Other()), reasonResigned); err != nil {
		return err
	}
	if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
		return err
	}
	h.note(fmt.Sprintf("resign %d", gs.g.ID))
	return h.announce(ctx, &gs, templates.BoardData{}, h.sender, h.commentFor(), false)
}

// commentFor returns the sender's words for the opponent, if any.
func (h *handling) commentFor() *templates.Comment {
	if h.comment == "" {
		return nil
	}
	return &templates.Comment{By: h.sender.Handle, Text: h.comment}
}

// ownGame loads the game a command names, when the sender plays in it;
// otherwise it answers why not and returns ok false.
func (h *handling) ownGame(ctx context.Context, c parser.Command) (gs gameState, ok bool, err error) {
	gs, err = h.loadGame(ctx, c.Game)
	if errors.Is(err, db.ErrNotFound) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchGame, GameID: c.Game})
		return gameState{}, false, nil
	}
	if err != nil {
		return gameState{}, false, err
	}
	if !gs.g.Has(h.sender.ID) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NotYourGame, GameID: c.Game})
		return gameState{}, false, nil
	}
	return gs, true, nil
}

// challengedGame loads a game the sender was challenged to and has not
// answered yet, or answers why it is not one.
func (h *handling) challengedGame(ctx context.Context, c parser.Command) (gs gameState, ok bool, err error) {
	gs, ok, err = h.ownGame(ctx, c)
	if err != nil || !ok {
		return gs, ok, err
	}
	switch {
	case gs.g.Status != db.Challenged:
		h.fail(h.gameError(c, gs, templates.NotChallenged, ""))
	case gs.g.Challenger == h.sender.ID:
		e := h.gameError(c, gs, templates.OwnChallenge, "")
		e.Handle = gs.opponent(h.sender.ID).Handle
		h.fail(e)
	default:
		return gs, true, nil
	}
	return gameState{}, false, nil
}

// activeGame loads a game of the sender's that is being played, or
// answers why it is not.
func (h *handling) activeGame(ctx context.Context, c parser.Command) (gs gameState, ok bool, err error) {
	gs, ok, err = h.ownGame(ctx, c)
	if err != nil || !ok {
		return gs, ok, err
	}
	if gs.g.Status == db.Active && !h.now.Before(gs.deadline()) {
		// The clock loop has not come to it yet: the time is up all the same.
		if err := h.timeOut(ctx, &gs); err != nil {
			return gameState{}, false, err
		}
	}
	if gs.g.Status != db.Active {
		h.fail(h.gameError(c, gs, templates.NotActive, ""))
		return gameState{}, false, nil
	}
	return gs, true, nil
}

// visibleGame loads a game the sender plays in or observes, or answers
// why they may not see it.
func (h *handling) visibleGame(ctx context.Context, c parser.Command) (gs gameState, ok bool, err error) {
	gs, err = h.loadGame(ctx, c.Game)
	if errors.Is(err, db.ErrNotFound) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchGame, GameID: c.Game})
		return gameState{}, false, nil
	}
	if err != nil || gs.g.Has(h.sender.ID) {
		return gs, err == nil, err
	}
	observers, err := h.tx.Observers(ctx, gs.g.ID)
	if err != nil {
		return gameState{}, false, err
	}
	for _, o := range observers {
		if o.ID == h.sender.ID {
			return gs, true, nil
		}
	}
	h.fail(templates.Error{Line: c.Line, Problem: templates.NotYourGame, GameID: c.Game})
	return gameState{}, false, nil
}

// gameError is an answer about one of the sender's games, with its board
// as the sender sees it (M3).
func (h *handling) gameError(c parser.Command, gs gameState, p templates.Problem, detail string) templates.Error {
	t := gs.template()
	v := gs.view(gs.colorOf(h.sender.ID))
	return templates.Error{Line: c.Line, Problem: p, Detail: detail, GameID: gs.g.ID, Game: &t, Board: &v}
}
