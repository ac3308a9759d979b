package server

import (
	"context"
	"fmt"
	"slices"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

// story is what one work did in one game, told in one mail to each of
// those it concerns once the work is done (M23): the moves, what else
// happened, and the game as it is after it all.
type story struct {
	st      game.State
	moves   []templates.Move
	events  []templates.Happening
	last    rules.Move // the last move, for the HTML board
	actor   *db.Player // who caused it; nil for the clock
	comment *templates.Comment
	perMove bool // moves alone: not mailed to those who want no mail per move (M18)
	// only, when set, is the one player told: a message alone goes to
	// the opponent.
	only *db.Player
	// notes are paragraphs for one player alone, by id: the answers to
	// their own mail.
	notes map[int64][]string
}

// note adds a paragraph to the mail of the story to one player.
func (s *story) note(player int64, text string) {
	if s.notes == nil {
		s.notes = map[int64][]string{}
	}
	s.notes[player] = append(s.notes[player], text)
}

// tell records the events of one change to a game for the mails that
// flush sends: those of a game, and the comment a player wrote with them
// (it goes to the other player when its writer caused them), make one
// story. A reminder and a vacation, which concern one player, are mailed
// at once.
func (w *work) tell(ctx context.Context, evs []game.Event, comment *templates.Comment) error {
	var ended []db.Game // tournament games
	for _, e := range evs {
		if e.Kind == game.Ended && e.Game.Game.Tournament != 0 {
			ended = append(ended, e.Game.Game)
		}
		if f := e.Fault; f != nil {
			w.s.log.Error(f.What, "game", f.Game, "move", f.Move, "err", f.Err)
		}
		w.noteEvent(e)
		st := e.Game
		switch e.Kind {
		case game.Reminded:
			if err := w.remind(ctx, &st, e.Final); err != nil {
				return err
			}
			continue
		case game.VacationStarted:
			if err := w.vacationNotice(ctx, &st, e.By); err != nil {
				return err
			}
			continue
		case game.Challenged, game.Declined, game.Adjourned, game.Resumed, game.Adjudicated:
			continue // told by mails of their own
		}
		s := w.story(st, e.By)
		if comment != nil && s.actor != nil && s.actor.Handle == comment.By {
			s.comment = comment
		}
		switch e.Kind {
		case game.Moved:
			words := templates.MoveOf(e.By.Handle, *e.Move)
			words.Conditional = e.Conditional
			s.moves, s.last = append(s.moves, words), e.Move.Move
			continue
		case game.Ended:
			switch {
			case st.Game.Reason == rules.OutOfTime:
				w.s.log.Info("lost on time", "game", st.ID(), "player", st.ToMove().Handle)
			case st.Game.Reason == rules.Resigned && w.s.isRobot(e.By):
				s.events = append(s.events, templates.Happening{Event: templates.RobotResigned, By: e.By.Handle})
			}
		case game.Accepted:
			s.events = append(s.events, templates.Happening{Event: templates.Accepted, By: e.By.Handle})
		case game.Started:
			if st.Event != "" {
				s.events = append(s.events, templates.Happening{Event: templates.TournamentBegun, Tournament: st.Event, Round: st.Game.Round})
				break
			}
			s.events = append(s.events, templates.Happening{Event: templates.Started})
		case game.DrawOffered, game.DrawDeclined, game.TakebackAsked, game.TakebackDone:
			s.events = append(s.events, templates.Happening{Event: offerWords[e.Kind], By: e.By.Handle})
		}
		s.perMove = false
	}
	return w.tournamentGamesEnded(ctx, ended)
}

// story returns the story of the game of st in this work, begun by by
// when it is new, and brings its game up to st.
func (w *work) story(st game.State, by db.Player) *story {
	for _, s := range w.stories {
		if s.st.ID() == st.ID() {
			root := s.st.Game.ThreadRoot
			s.st = st
			if s.st.Game.ThreadRoot == "" {
				s.st.Game.ThreadRoot = root
			}
			return s
		}
	}
	s := &story{st: st, perMove: true}
	if by.ID != 0 {
		s.actor = &by
	}
	w.stories = append(w.stories, s)
	return s
}

// flush mails the stories of the work, one mail to each recipient of
// each game, in the order the games were first told.
func (w *work) flush(ctx context.Context) error {
	stories := w.stories
	w.stories = nil
	for _, s := range stories {
		data := templates.BoardData{Moves: s.moves, Events: s.events, Last: s.last}
		if s.only != nil {
			data.Game, data.To, data.Comment = gameWords(&s.st), s.only.Handle, s.comment
			data.Board = templates.ViewOf(s.st.Pos, s.st.Side(s.only.ID))
			if err := w.boardMail(ctx, &s.st, *s.only, data); err != nil {
				return err
			}
			continue
		}
		if err := w.announce(ctx, &s.st, data, s.actor, s.comment, s.perMove, s.notes); err != nil {
			return err
		}
	}
	return nil
}

// flushGames mails the stories of the games ids now, before the rest of
// the work's.
func (w *work) flushGames(ctx context.Context, ids []int64) error {
	var now, later []*story
	for _, s := range w.stories {
		if slices.Contains(ids, s.st.ID()) {
			now = append(now, s)
		} else {
			later = append(later, s)
		}
	}
	w.stories = now
	err := w.flush(ctx)
	w.stories = append(later, w.stories...)
	return err
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
// the observers, with what data says happened, and to each player the
// notes for them. actor, when not nil, is the player who caused it: the
// comment goes to the other. A perMove
// mail does not go to a player other than actor who asked for no mail
// per move (M18), unless the game is over. The first mail of a game
// without a thread starts it (M9). When the robot is to move, the mails
// about a move wait for its answer, and then show both moves.
func (w *work) announce(ctx context.Context, st *game.State, data templates.BoardData, actor *db.Player, comment *templates.Comment, perMove bool, notes map[int64][]string) error {
	if perMove && w.robotWaits(st) {
		return nil // the robot's answer brings the move (RobotStep)
	}
	data.Game = gameWords(st)
	data.Moves, w.earlier = append(slices.Clone(w.earlier), data.Moves...), nil
	if w.opening > 0 {
		// The robot's first move is the first mail of the game: it goes
		// out whatever the challenger's notify setting, as the answer
		// to a challenge does.
		data.Level, data.Robot = w.opening, w.s.robot
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
		data.To, data.Comment, data.Notes = to.Handle, nil, notes[to.ID]
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
	data := templates.BoardData{Game: gameWords(st), To: to.Handle, Board: templates.ViewOf(st.Pos, st.Pos.Turn()),
		Events:   []templates.Happening{{Event: templates.Reminder, Until: st.Deadline(), Final: final}},
		Drowning: templates.DrowningOf(st.Pos)}
	return w.boardMail(ctx, st, to, data)
}

// vacationNotice tells p's opponent in st that p went on vacation.
func (w *work) vacationNotice(ctx context.Context, st *game.State, p db.Player) error {
	opp := st.Opponent(p.ID)
	data := templates.BoardData{Game: gameWords(st), To: opp.Handle, Board: templates.ViewOf(st.Pos, st.ColorOf(opp.ID)),
		Events: []templates.Happening{{Event: templates.VacationStarted, By: p.Handle, Until: p.VacationUntil}}}
	return w.boardMail(ctx, st, opp, data)
}

// boardMail sends one board mail about st, in the game's thread, with
// its HTML alternative (M12); the first mail of a game starts the thread.
func (w *work) boardMail(ctx context.Context, st *game.State, to db.Player, data templates.BoardData) error {
	data.Lang = w.lang(to)
	if err := w.subject(ctx, &data.Game, to); err != nil {
		return err
	}
	data.Page = w.s.gamePage(st.ID())
	// Rendered as the mail is composed, in another goroutine: data is
	// this mail's own (Board clones what it changes).
	id, err := w.renderedGameMail(ctx, to, st.Game, func(o *mailmsg.Outgoing) (err error) {
		o.Subject, o.Text, o.HTML, err = templates.BoardMail(data)
		return err
	})
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
