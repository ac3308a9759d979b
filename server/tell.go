package server

import (
	"context"
	"fmt"
	"slices"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

// tell sends the mails that the events of one change to a game cause,
// each event told to those it concerns as it happened (the game as it
// was just after it): a board mail to both players and the observers
// for most, a reminder to the player to move, a vacation to the
// opponent. comment is the words a player wrote with the change, which go
// to the other player with the events that player caused. The end of a
// game that a move caused is told with the move.
func (w *work) tell(ctx context.Context, evs []game.Event, comment *templates.Comment) error {
	for i, e := range evs {
		if f := e.Fault; f != nil {
			w.s.log.Error(f.What, "game", f.Game, "move", f.Move, "err", f.Err)
		}
		var by *db.Player
		if e.By.ID != 0 {
			by = &e.By
		}
		c := comment
		if c != nil && (by == nil || by.Handle != c.By) {
			c = nil // the words go with what their writer did
		}
		st := e.Game
		if st.Game.ThreadRoot == "" {
			st.Game.ThreadRoot = w.roots[st.ID()] // an earlier event's mail started the thread
		}
		w.noteEvent(e)
		var err error
		switch e.Kind {
		case game.Moved:
			words := templates.MoveOf(e.By.Handle, *e.Move)
			words.Conditional = e.Conditional
			err = w.announce(ctx, &st, templates.BoardData{Move: &words, Last: e.Move.Move}, by, c, true)
		case game.Ended:
			if i > 0 && evs[i-1].Kind == game.Moved {
				continue // told with the move
			}
			data := templates.BoardData{}
			switch {
			case st.Game.Reason == rules.OutOfTime:
				w.s.log.Info("lost on time", "game", st.ID(), "player", st.ToMove().Handle)
			case st.Game.Reason == rules.Resigned && by != nil && w.s.isRobot(*by):
				data = templates.BoardData{Event: templates.RobotResigned, By: by.Handle}
			}
			err = w.announce(ctx, &st, data, by, c, false)
		case game.Accepted:
			err = w.announce(ctx, &st, templates.BoardData{Accepted: true}, by, c, false)
		case game.Started:
			err = w.announce(ctx, &st, templates.BoardData{Event: templates.Started}, nil, nil, false)
		case game.DrawOffered, game.DrawDeclined, game.TakebackAsked, game.TakebackDone:
			err = w.announce(ctx, &st, templates.BoardData{Event: offerWords[e.Kind], By: e.By.Handle}, by, c, false)
		case game.Reminded:
			err = w.remind(ctx, &st, e.Final)
		case game.VacationStarted:
			err = w.vacationNotice(ctx, &st, e.By)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// offerWords are the board mails' words for the events of offers.
var offerWords = map[game.Kind]templates.Event{
	game.DrawOffered:   templates.DrawOffered,
	game.DrawDeclined:  templates.DrawDeclined,
	game.TakebackAsked: templates.TakebackAsked,
	game.TakebackDone:  templates.TakebackDone,
}

// noteEvent notes an event for the summary of the work.
func (w *work) noteEvent(e game.Event) {
	id, robot := e.Game.ID(), w.s.isRobot(e.By)
	switch {
	case e.Kind == game.Moved:
		w.note(fmt.Sprintf("move %d %s", id, e.Move.Move))
	case e.Kind == game.Accepted:
		w.note(fmt.Sprintf("accept %d", id))
	case e.Kind == game.DrawOffered:
		w.note(fmt.Sprintf("draw %d: offered", id))
	case e.Kind == game.DrawDeclined && robot:
		w.note(fmt.Sprintf("draw %d: declined by the robot", id))
	case e.Kind == game.DrawDeclined:
		w.note(fmt.Sprintf("nodraw %d", id))
	case e.Kind == game.TakebackAsked:
		w.note(fmt.Sprintf("takeback %d: asked", id))
	case e.Kind == game.TakebackDone:
		w.note(fmt.Sprintf("takeback %d: done", id))
	case e.Kind != game.Ended:
	case e.Game.Game.Reason == rules.OutOfTime:
		w.note("time out")
	case e.Game.Game.Reason == rules.Resigned && robot:
		w.note(fmt.Sprintf("robot resigns %d", id))
	case e.Game.Game.Reason == rules.Resigned:
		w.note(fmt.Sprintf("resign %d", id))
	case e.Game.Game.Reason == rules.Agreed && robot:
		w.note(fmt.Sprintf("draw %d: agreed by the robot", id))
	case e.Game.Game.Reason == rules.Agreed:
		w.note(fmt.Sprintf("draw %d: agreed", id))
	case e.Game.Game.Reason == rules.Aborted:
		w.note(fmt.Sprintf("abort %d", id))
	}
}

// announce sends the board to both players, each from their side, and to
// the observers, with what data says happened. actor, when not nil, is
// the player who caused it: the comment goes to the other. A perMove
// mail does not go to a player other than actor who asked for no mail
// per move (M18), unless the game is over. The first mail of a game
// without a thread starts it (M9). When the robot is to move, the mails
// about a move wait for its answer, and then show both moves.
func (w *work) announce(ctx context.Context, st *game.State, data templates.BoardData, actor *db.Player, comment *templates.Comment, perMove bool) error {
	if perMove && w.robotWaits(st) {
		return nil // the robot's answer brings the move (RobotStep)
	}
	data.Game = gameWords(st)
	data.Earlier, w.earlier = w.earlier, nil
	if w.opening > 0 {
		// The robot's first move is the first mail of the game: it goes
		// out whatever the challenger's notify setting, as the answer
		// to a challenge does.
		data.Accepted, data.Level, data.By = true, w.opening, w.s.robot
		w.opening, perMove = 0, false
	}
	players := []db.Player{st.White, st.Black}
	if actor != nil && actor.ID == st.Game.White {
		players = []db.Player{st.Black, st.White}
	}
	observers, err := w.tx.Observers(ctx, st.ID())
	if err != nil {
		return err
	}
	for i, to := range slices.Concat(players, observers) {
		isActor := actor != nil && to.ID == actor.ID
		if perMove && !isActor && st.Active() && to.Notify != db.NotifyEach && to.Notify != "" {
			continue
		}
		data.To, data.Comment = to.Handle, nil
		if !isActor && i < len(players) {
			data.Comment = comment
		}
		data.Board = templates.ViewOf(st.Pos, st.Side(to.ID)).WithLast(data.Last)
		data.Drowning = nil
		if st.Active() && to.ID == st.ToMove().ID {
			data.Drowning = templates.DrowningOf(st.Pos)
		}
		if err := w.boardMail(ctx, st, to, data); err != nil {
			return err
		}
	}
	return nil
}

// remind tells the player to move how much time is left.
func (w *work) remind(ctx context.Context, st *game.State, final bool) error {
	to := st.ToMove()
	data := templates.BoardData{Game: gameWords(st), To: to.Handle, Event: templates.Reminder,
		Until: st.Deadline(), Board: templates.ViewOf(st.Pos, st.Pos.Turn()), Final: final,
		Drowning: templates.DrowningOf(st.Pos)}
	return w.boardMail(ctx, st, to, data)
}

// vacationNotice tells p's opponent in st that p went on vacation.
func (w *work) vacationNotice(ctx context.Context, st *game.State, p db.Player) error {
	opp := st.Opponent(p.ID)
	data := templates.BoardData{Game: gameWords(st), Event: templates.VacationStarted, By: p.Handle, Until: p.VacationUntil,
		To: opp.Handle, Board: templates.ViewOf(st.Pos, st.ColorOf(opp.ID))}
	return w.boardMail(ctx, st, opp, data)
}

// boardMail sends one board mail about st, in the game's thread, with
// its HTML alternative (M12); the first mail of a game starts the thread.
func (w *work) boardMail(ctx context.Context, st *game.State, to db.Player, data templates.BoardData) error {
	subject, body, html, err := templates.BoardMail(data)
	if err != nil {
		return err
	}
	id, err := w.gameMail(ctx, to, st.Game, subject, body, html)
	if err != nil {
		return err
	}
	if st.Game.ThreadRoot == "" && id != "" {
		if err := w.setThreadRoot(ctx, st.ID(), id); err != nil {
			return err
		}
		st.Game.ThreadRoot = id
	}
	return nil
}

// setThreadRoot records the first mail of a game's thread (M9), for the
// events told after it too.
func (w *work) setThreadRoot(ctx context.Context, game int64, id string) error {
	g, err := w.tx.Game(ctx, game)
	if err != nil {
		return err
	}
	g.ThreadRoot = id
	if w.roots == nil {
		w.roots = map[int64]string{}
	}
	w.roots[game] = id
	return w.tx.UpdateGame(ctx, g, w.now)
}

// robotWaits reports whether the board mails about a move in st wait for
// the robot's answer: it is the robot's move.
func (w *work) robotWaits(st *game.State) bool {
	return st.Active() && w.s.isRobot(st.ToMove())
}
