package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

// challenge starts a game: the challenged player is asked to accept it.
func (h *handling) challenge(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.ChallengeArgs)
	opponent, err := h.tx.PlayerByHandle(ctx, a.Handle)
	if errors.Is(err, db.ErrNotFound) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchPlayer, Handle: a.Handle})
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
	case robot.IsAddress(opponent.Address) && !robotGame: // a robot that no longer plays
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchPlayer, Handle: a.Handle})
		return nil
	case a.Level != 0 && !robotGame:
		h.fail(templates.Error{Line: c.Line, Problem: templates.LevelForHuman, Handle: opponent.Handle})
		return nil
	case !opponent.Confirmed:
		h.fail(templates.Error{Line: c.Line, Problem: templates.Unconfirmed, Handle: opponent.Handle})
		return nil
	}
	if over, err := h.tooMany(ctx, c, opponent, robotGame); over || err != nil {
		return err
	}
	terms := game.Terms{White: *h.sender, Black: opponent, Challenger: *h.sender, Control: a.Control, Unrated: a.Unrated}
	if a.Color == rules.Black {
		terms.White, terms.Black = opponent, *h.sender
	}
	if robotGame {
		return h.challengeRobot(ctx, terms, opponent, a.Level)
	}
	st, _, err := game.Challenge(ctx, h.tx, terms, h.now)
	if err != nil {
		return err
	}
	data := templates.ChallengeData{Lang: h.lang(opponent), Game: gameWords(&st), To: opponent.Handle, Challenger: h.sender.Handle,
		Challenged: opponent.Handle, Comment: h.commentFor(0)}
	if err := h.subject(ctx, &data.Game, opponent); err != nil {
		return err
	}

	// The mail to the challenged player starts the game's thread (M9).
	subject, body, err := templates.Challenge(data)
	if err != nil {
		return err
	}
	root, err := h.gameMail(ctx, opponent, st.Game, subject, body, "")
	if err != nil {
		return err
	}
	if root != "" { // not held back by a cap
		if err := h.setThreadRoot(ctx, st.ID(), root); err != nil {
			return err
		}
		st.Game.ThreadRoot = root
	}
	data.Lang, data.To, data.Comment = h.lang(*h.sender), h.sender.Handle, nil
	if err := h.subject(ctx, &data.Game, *h.sender); err != nil {
		return err
	}
	if subject, body, err = templates.ChallengeSent(data); err != nil {
		return err
	}
	h.note(fmt.Sprintf("challenge %s: game %d", opponent.Handle, st.ID()))
	_, err = h.gameMail(ctx, *h.sender, st.Game, subject, body, "")
	return err
}

// tooMany refuses a challenge past the caps of M29: challenges a day per
// player, and games being played against the robot.
func (h *handling) tooMany(ctx context.Context, c parser.Command, opponent db.Player, robotGame bool) (bool, error) {
	if robotGame && h.s.robotGames > 0 {
		n, err := h.tx.ActiveBetween(ctx, h.sender.ID, opponent.ID)
		if err != nil || n < h.s.robotGames {
			return false, err
		}
		h.fail(templates.Error{Line: c.Line, Problem: templates.TooManyRobotGames, Handle: opponent.Handle, Detail: fmt.Sprint(h.s.robotGames)})
		return true, nil
	}
	if h.s.challengesPerDay <= 0 {
		return false, nil
	}
	n, err := h.tx.ChallengesSince(ctx, h.sender.ID, h.now.Add(-24*time.Hour))
	if err != nil || n < h.s.challengesPerDay {
		return false, err
	}
	h.fail(templates.Error{Line: c.Line, Problem: templates.TooManyChallenges, Detail: fmt.Sprint(h.s.challengesPerDay)})
	return true, nil
}

// challengeRobot starts a game under terms against the robot, which
// accepts every challenge at once: the challenger gets the start board,
// and the robot plays at level (robot.DefaultLevel for 0).
func (h *handling) challengeRobot(ctx context.Context, terms game.Terms, me db.Player, level int) error {
	if level == 0 {
		level = robot.DefaultLevel
	}
	st, _, err := game.Start(ctx, h.tx, terms, h.now)
	if err != nil {
		return err
	}
	if err := h.tx.SetRobotLevel(ctx, st.ID(), level); err != nil {
		return err
	}
	h.note(fmt.Sprintf("challenge %s: game %d, level %d", me.Handle, st.ID(), level))
	if h.robotWaits(&st) {
		return nil // the robot plays white: its first move's mail tells all (robotPlay)
	}
	return h.announce(ctx, &st, templates.BoardData{Level: level, Robot: me.Handle}, &me, nil, false, nil)
}

// accept starts a game the sender was challenged to.
func (h *handling) accept(ctx context.Context, c parser.Command) error {
	st, ok, err := h.ownGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	evs, err := game.Accept(ctx, h.tx, &st, *h.sender)
	if h.refusal(c, &st, err) {
		return nil
	}
	if err != nil {
		return err
	}
	return h.tell(ctx, evs, h.commentFor(st.ID()))
}

// decline refuses a game the sender was challenged to.
func (h *handling) decline(ctx context.Context, c parser.Command) error {
	st, ok, err := h.ownGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	_, err = game.Decline(ctx, h.tx, &st, *h.sender)
	if h.refusal(c, &st, err) {
		return nil
	}
	if err != nil {
		return err
	}
	h.note(fmt.Sprintf("decline %d", st.ID()))
	challenger := st.Opponent(h.sender.ID)
	data := templates.ChallengeData{Game: gameWords(&st), Challenger: challenger.Handle, Challenged: h.sender.Handle}
	for _, to := range []db.Player{challenger, *h.sender} {
		data.Lang, data.To, data.Comment = h.lang(to), to.Handle, nil
		if err := h.subject(ctx, &data.Game, to); err != nil {
			return err
		}
		if to.ID != h.sender.ID {
			data.Comment = h.commentFor(st.ID())
		}
		subject, body, err := templates.ChallengeDeclined(data)
		if err != nil {
			return err
		}
		if _, err := h.gameMail(ctx, to, st.Game, subject, body, ""); err != nil {
			return err
		}
	}
	return nil
}

// move plays a move in one of the sender's games.
func (h *handling) move(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.MoveArgs)
	return h.change(ctx, c, func(st *game.State, comment string) ([]game.Event, error) {
		return game.Move(ctx, h.tx, st, *h.sender, a.Move, a.Number, comment)
	})
}

// resign ends one of the sender's games in the opponent's favour.
func (h *handling) resign(ctx context.Context, c parser.Command) error {
	return h.change(ctx, c, func(st *game.State, _ string) ([]game.Event, error) {
		return game.Resign(ctx, h.tx, st, *h.sender)
	})
}

// draw offers a draw, or accepts the opponent's offer (M13); the robot
// answers an offer at once.
func (h *handling) draw(ctx context.Context, c parser.Command) error {
	return h.change(ctx, c, func(st *game.State, _ string) ([]game.Event, error) {
		if other := st.Opponent(h.sender.ID); h.s.isRobot(other) {
			return h.robotDraw(ctx, st, other)
		}
		return game.Draw(ctx, h.tx, st, *h.sender)
	})
}

// noDraw declines the opponent's draw offer.
func (h *handling) noDraw(ctx context.Context, c parser.Command) error {
	return h.change(ctx, c, func(st *game.State, _ string) ([]game.Event, error) {
		return game.NoDraw(ctx, h.tx, st, *h.sender)
	})
}

// takeback asks to undo the sender's last move, or grants the opponent's
// request (M13); the robot takes nothing back.
func (h *handling) takeback(ctx context.Context, c parser.Command) error {
	return h.change(ctx, c, func(st *game.State, _ string) ([]game.Event, error) {
		if other := st.Opponent(h.sender.ID); h.s.isRobot(other) {
			e := h.gameError(c, st, templates.RobotTakeback, "")
			e.Handle = other.Handle
			h.fail(e)
			return nil, nil
		}
		return game.Takeback(ctx, h.tx, st, *h.sender)
	})
}

// abort ends a game without result, while not both sides have moved
// (M13).
func (h *handling) abort(ctx context.Context, c parser.Command) error {
	return h.change(ctx, c, func(st *game.State, _ string) ([]game.Event, error) {
		if st.Event != "" {
			h.fail(h.gameError(c, st, templates.TournamentAbort, st.Event))
			return nil, nil
		}
		return game.Abort(ctx, h.tx, st, *h.sender)
	})
}

// ifLine keeps a line of conditional moves (M14).
func (h *handling) ifLine(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.IfArgs)
	st, ok, err := h.activeGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	err = game.AddConditional(ctx, h.tx, &st, *h.sender, a.Moves)
	if h.refusal(c, &st, err) {
		return nil
	}
	if err != nil {
		return err
	}
	h.note(fmt.Sprintf("conditional %d", st.ID()))
	if !slices.Contains(h.conditionals, st.ID()) {
		h.conditionals = append(h.conditionals, st.ID())
	}
	h.added[st.ID()]++
	return nil
}

// conditional shows, or clears, the sender's conditional moves in a game.
func (h *handling) conditional(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.ConditionalArgs)
	st, ok, err := h.ownGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	if a.Clear {
		n, err := h.tx.ClearConditionals(ctx, st.ID(), h.sender.ID)
		if err != nil {
			return err
		}
		h.cleared[st.ID()] += n
	}
	if !slices.Contains(h.conditionals, st.ID()) {
		h.conditionals = append(h.conditionals, st.ID())
	}
	h.note(fmt.Sprintf("conditional %d", st.ID()))
	return nil
}

// listConditionals answers, once per game, the commands about
// conditional moves with the lines kept after the whole mail.
func (h *handling) listConditionals(ctx context.Context) error {
	for _, id := range h.conditionals {
		branches, err := h.tx.Conditionals(ctx, id, h.sender.ID)
		if err != nil {
			return err
		}
		h.answer(templates.ConditionalList{GameID: id, Branches: branches, Added: h.added[id], Cleared: h.cleared[id]})
	}
	return nil
}

// change makes a change to one of the sender's games being played, and
// tells what happened: fn makes it, given the sender's comment, and
// returns the events, or a *game.Refusal, which is answered.
func (h *handling) change(ctx context.Context, c parser.Command, fn func(st *game.State, comment string) ([]game.Event, error)) error {
	st, ok, err := h.activeGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	comment := ""
	if cm := h.commentFor(st.ID()); cm != nil {
		comment = cm.Text
	}
	evs, err := fn(&st, comment)
	if h.refusal(c, &st, err) {
		return nil
	}
	if err != nil {
		return err
	}
	h.rated(evs)
	return h.tell(ctx, evs, h.commentFor(st.ID()))
}

// rated brings the sender's rating up to date when the events end a
// rated game of theirs.
func (h *handling) rated(evs []game.Event) {
	for _, e := range evs {
		if st := e.Game; e.Kind == game.Ended && st.Rated != nil && st.Game.Has(h.sender.ID) {
			*h.sender = st.Player(st.ColorOf(h.sender.ID))
		}
	}
}

// refusal answers err, when it is a *game.Refusal of the command c about
// st, with the game's board, and reports whether it was one. The mails
// name a game's problems with the game's words (TestRefusalsHaveWords).
func (h *handling) refusal(c parser.Command, st *game.State, err error) bool {
	var r *game.Refusal
	if !errors.As(err, &r) {
		return false
	}
	e := h.gameError(c, st, templates.Problem(r.Problem.String()), "")
	e.Handle, e.Move, e.Reason = r.Other, r.Move, templates.Phrase{Format: r.Format, Args: r.Args}
	h.fail(e)
	return true
}

// namedGame loads the game a command names, or answers that there is no
// such game and returns ok false.
func (h *handling) namedGame(ctx context.Context, c parser.Command) (st game.State, ok bool, err error) {
	st, err = game.Load(ctx, h.tx, c.Game, h.now)
	if errors.Is(err, db.ErrNotFound) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoSuchGame, GameID: c.Game})
		return game.State{}, false, nil
	}
	return st, err == nil, err
}

// ownGame loads the game a command names, when the sender plays in it;
// otherwise it answers why not and returns ok false.
func (h *handling) ownGame(ctx context.Context, c parser.Command) (st game.State, ok bool, err error) {
	if st, ok, err = h.namedGame(ctx, c); !ok {
		return st, ok, err
	}
	if !st.Game.Has(h.sender.ID) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NotYourGame, GameID: c.Game})
		return game.State{}, false, nil
	}
	return st, true, nil
}

// activeGame loads a game of the sender's that is being played, or
// answers why it is not. A game whose player to move ran out of time
// ends now, if the clock loop has not come to it yet.
func (h *handling) activeGame(ctx context.Context, c parser.Command) (st game.State, ok bool, err error) {
	st, ok, err = h.ownGame(ctx, c)
	if err != nil || !ok {
		return st, ok, err
	}
	evs, err := game.CheckTime(ctx, h.tx, &st)
	if err != nil {
		return game.State{}, false, err
	}
	h.rated(evs)
	if err := h.tell(ctx, evs, nil); err != nil {
		return game.State{}, false, err
	}
	if !st.Active() {
		h.fail(h.gameError(c, &st, templates.NotActive, ""))
		return game.State{}, false, nil
	}
	return st, true, nil
}

// visibleGame loads a game the sender plays in or observes, or answers
// why they may not see it.
func (h *handling) visibleGame(ctx context.Context, c parser.Command) (st game.State, ok bool, err error) {
	if st, ok, err = h.namedGame(ctx, c); !ok || st.Game.Has(h.sender.ID) {
		return st, ok, err
	}
	observers, err := h.tx.Observers(ctx, st.ID())
	if err != nil {
		return game.State{}, false, err
	}
	for _, o := range observers {
		if o.ID == h.sender.ID {
			return st, true, nil
		}
	}
	h.fail(templates.Error{Line: c.Line, Problem: templates.NotYourGame, GameID: c.Game})
	return game.State{}, false, nil
}

// gameError is an answer about one of the sender's games, with its board
// as the sender sees it (M3).
func (h *handling) gameError(c parser.Command, st *game.State, p templates.Problem, detail string) templates.Error {
	t := gameWords(st)
	v := templates.ViewOf(st.Pos, st.ColorOf(h.sender.ID))
	return templates.Error{Line: c.Line, Problem: p, Detail: detail, GameID: st.ID(), Game: &t, Board: &v}
}
