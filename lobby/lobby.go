// Package lobby is the room where games begin: challenges and their
// answers, games against the robot, seeks that pair two players who want
// the same time control (M11), and the caps on them (M29).
package lobby

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

// Challenge starts a game: the challenged player is asked to accept it;
// the robot accepts at once.
func Challenge(ctx context.Context, r *command.Request, a parser.ChallengeArgs) (command.Result, error) {
	opponent, err := r.Tx.PlayerByHandle(ctx, a.Handle)
	if errors.Is(err, db.ErrNotFound) {
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.NoSuchPlayer, Handle: a.Handle})
	}
	if err != nil {
		return command.Result{}, err
	}
	if opponent.ID == r.Sender.ID {
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.ChallengeSelf})
	}
	robotGame := r.IsRobot(opponent)
	switch {
	case tell.IsRobotAddress(opponent.Address) && !robotGame: // a robot that no longer plays
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.NoSuchPlayer, Handle: a.Handle})
	case a.Level != 0 && !robotGame:
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.LevelForHuman, Handle: opponent.Handle})
	case a.TimeoutClaim && robotGame:
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.RobotClaim, Handle: opponent.Handle})
	case !opponent.Confirmed:
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.Unconfirmed, Handle: opponent.Handle})
	}
	// A game from a position (M72): one a game can begin from, which
	// the rules decide.
	var start *rules.Position
	if a.Position != "" {
		pos, err := rules.ParseSetUp(a.Position)
		if se, ok := errors.AsType[*rules.SetUpError](err); ok {
			return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.BadPosition,
				Reason: templates.Phrase{Format: se.Format, Args: se.Args}})
		} else if err != nil {
			return command.Result{}, err
		}
		start = &pos
	}
	if err := tooMany(ctx, r, opponent, robotGame); err != nil {
		return command.Result{}, err
	}
	if err := r.Budget(ctx, opponent); err != nil {
		return command.Result{}, err
	}
	// A game against the robot is unrated unless the challenge says
	// rated (M60).
	terms := game.Terms{White: r.Sender, Black: opponent, Challenger: r.Sender, Control: a.Control,
		Unrated: a.Unrated || robotGame && !a.Rated, TimeoutClaim: a.TimeoutClaim}
	if start != nil {
		terms.Start = start.String()
	}
	if a.Color == rules.Black {
		terms.White, terms.Black = opponent, r.Sender
	}
	if robotGame {
		return challengeRobot(ctx, r, terms, opponent, a.Level)
	}
	st, _, err := game.Challenge(ctx, r.Tx, terms, r.Now)
	if err != nil {
		return command.Result{}, err
	}
	data := templates.ChallengeData{Lang: r.Lang(opponent), Game: tell.GameWords(&st), To: opponent.Handle, Challenger: r.Sender.Handle,
		Challenged: opponent.Handle, Message: r.Message(0)}
	if start != nil {
		v := templates.ViewOf(*start, st.ColorOf(opponent.ID))
		data.Start = &v
	}
	if err := r.Subject(ctx, &data.Game, opponent); err != nil {
		return command.Result{}, err
	}

	// The mail to the challenged player starts the game's thread (M9).
	subject, body, err := templates.Challenge(data)
	if err != nil {
		return command.Result{}, err
	}
	root, err := r.GameMail(ctx, opponent, st.Game, subject, body, "")
	if err != nil {
		return command.Result{}, err
	}
	if root != "" { // not held back by a cap
		if err := r.SetThreadRoot(ctx, st.ID(), root); err != nil {
			return command.Result{}, err
		}
		st.Game.ThreadRoot = root
	}
	data.Lang, data.To, data.Message, data.Relayed = r.Lang(r.Sender), r.Sender.Handle, nil, data.Message != nil
	if start != nil {
		v := templates.ViewOf(*start, st.ColorOf(r.Sender.ID))
		data.Start = &v
	}
	if err := r.Subject(ctx, &data.Game, r.Sender); err != nil {
		return command.Result{}, err
	}
	if subject, body, err = templates.ChallengeSent(data); err != nil {
		return command.Result{}, err
	}
	if _, err = r.GameMail(ctx, r.Sender, st.Game, subject, body, ""); err != nil {
		return command.Result{}, err
	}
	return command.Result{Notes: []string{fmt.Sprintf("challenge %s: game %d", opponent.Handle, st.ID())}}, nil
}

// tooMany refuses a challenge past the caps of M29: challenges a day per
// player, and games being played against the robot.
func tooMany(ctx context.Context, r *command.Request, opponent db.Player, robotGame bool) error {
	s := r.Settings()
	if robotGame && s.RobotGames > 0 {
		n, err := r.Tx.CountActiveBetween(ctx, r.Sender.ID, opponent.ID)
		if err != nil || n < s.RobotGames {
			return err
		}
		return command.Refuse(templates.Error{Line: r.Line, Problem: templates.TooManyRobotGames, Handle: opponent.Handle, Detail: fmt.Sprint(s.RobotGames)})
	}
	if s.ChallengesPerDay <= 0 {
		return nil
	}
	n, err := r.Tx.CountChallengesSince(ctx, r.Sender.ID, r.Now.Add(-24*time.Hour))
	if err != nil || n < s.ChallengesPerDay {
		return err
	}
	return command.Refuse(templates.Error{Line: r.Line, Problem: templates.TooManyChallenges, Detail: fmt.Sprint(s.ChallengesPerDay)})
}

// challengeRobot starts a game under terms against the robot, which
// accepts every challenge at once: the challenger gets the start board,
// and the robot plays at level (robot.DefaultLevel for 0).
func challengeRobot(ctx context.Context, r *command.Request, terms game.Terms, me db.Player, level int) (command.Result, error) {
	if level == 0 {
		level = robot.DefaultLevel
	}
	st, _, err := game.Start(ctx, r.Tx, terms, r.Now)
	if err != nil {
		return command.Result{}, err
	}
	if err := r.Tx.SetRobotLevel(ctx, st.ID(), level); err != nil {
		return command.Result{}, err
	}
	res := command.Result{Notes: []string{fmt.Sprintf("challenge %s: game %d, level %d", me.Handle, st.ID(), level)}}
	unread := templates.RobotReadsNone{Robot: me.Handle} // words beside the challenge (M59)
	if r.RobotWaits(&st) {
		// The robot plays white: its first move's mail tells all, and
		// the answer what the robot did not read.
		if r.Message(0) != nil {
			res.Answers, res.Game = []templates.Section{unread}, st.ID()
		}
		return res, nil
	}
	var notes map[int64][]string
	if r.Message(0) != nil {
		line, err := templates.RobotReadsNoneLine(r.Lang(r.Sender), me.Handle)
		if err != nil {
			return command.Result{}, err
		}
		notes = map[int64][]string{r.Sender.ID: {line}}
	}
	return res, r.Announce(ctx, &st, templates.BoardData{Level: level, Robot: me.Handle}, &me, notes)
}

// Accept starts a game the sender was challenged to.
func Accept(ctx context.Context, r *command.Request) (command.Result, error) {
	st, err := r.OwnGame(ctx)
	if err != nil {
		return command.Result{}, err
	}
	if err := r.Budget(ctx, st.Opponent(r.Sender.ID)); err != nil {
		return command.Result{}, err
	}
	evs, err := game.Accept(ctx, r.Tx, &st, r.Sender)
	if err != nil {
		return command.Result{}, r.GameRefusal(&st, err)
	}
	return command.Result{Events: evs, Message: r.Message(st.ID())}, nil
}

// Decline refuses a game the sender was challenged to; both are told.
func Decline(ctx context.Context, r *command.Request) (command.Result, error) {
	st, err := r.OwnGame(ctx)
	if err != nil {
		return command.Result{}, err
	}
	if err := r.Budget(ctx, st.Opponent(r.Sender.ID)); err != nil {
		return command.Result{}, err
	}
	if _, err = game.Decline(ctx, r.Tx, &st, r.Sender); err != nil {
		return command.Result{}, r.GameRefusal(&st, err)
	}
	challenger := st.Opponent(r.Sender.ID)
	data := templates.ChallengeData{Game: tell.GameWords(&st), Challenger: challenger.Handle, Challenged: r.Sender.Handle}
	for _, to := range []db.Player{challenger, r.Sender} {
		data.Lang, data.To, data.Message = r.Lang(to), to.Handle, nil
		if err := r.Subject(ctx, &data.Game, to); err != nil {
			return command.Result{}, err
		}
		if to.ID != r.Sender.ID {
			data.Message = r.Message(st.ID())
		}
		subject, body, err := templates.ChallengeDeclined(data)
		if err != nil {
			return command.Result{}, err
		}
		if _, err := r.GameMail(ctx, to, st.Game, subject, body, ""); err != nil {
			return command.Result{}, err
		}
	}
	return command.Result{Notes: []string{fmt.Sprintf("decline %d", st.ID())}}, nil
}
