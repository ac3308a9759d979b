package tell

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
	message *templates.Message
	perMove bool // moves alone: not mailed to those who want no mail per move (M18)
	// only, when set, is the one player told: a message alone goes to
	// the opponent.
	only *db.Player
	// notes are paragraphs for one player alone, by id: the answers to
	// their own mail; first, those that come first in their mail (M58).
	notes, first map[int64][]string
}

// note adds a paragraph to the mail of the story to one player.
func (s *story) note(player int64, text string) {
	if s.notes == nil {
		s.notes = map[int64][]string{}
	}
	s.notes[player] = append(s.notes[player], text)
}

// Tell records the events of one change to a game for the mails that
// Flush sends: those of a game, and the message a player wrote with them
// (it goes to the other player when its writer caused them), make one
// story. A reminder and a vacation, which concern one player, are mailed
// at once; the ends of tournament games move their tournaments on
// (Teller.GamesEnded).
func (w *Work) Tell(ctx context.Context, evs []game.Event, message *templates.Message) error {
	var ended []db.Game // tournament games
	for _, e := range evs {
		if e.Kind == game.Ended && e.Game.Game.Tournament != 0 {
			ended = append(ended, e.Game.Game)
		}
		if f := e.Fault; f != nil {
			w.log.Error(f.What, "game", f.Game, "move", f.Move, "err", f.Err)
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
		case game.TimeUp:
			if err := w.timeUp(ctx, &st); err != nil {
				return err
			}
			continue
		case game.Challenged, game.Declined, game.Adjourned, game.Resumed, game.Adjudicated:
			continue // told by mails of their own
		}
		s := w.story(st, e.By)
		if message != nil && s.actor != nil && s.actor.Handle == message.By {
			s.message = message
		}
		switch e.Kind {
		case game.Moved:
			words := templates.MoveOf(e.By.Handle, *e.Move)
			words.Conditional = e.Conditional
			s.moves, s.last = append(s.moves, words), e.Move.Move
			continue
		case game.Ended:
			switch {
			case e.Conditional && st.Game.Reason == rules.Resigned:
				s.events = append(s.events, templates.Happening{Event: templates.ConditionalResign, By: e.By.Handle})
			case e.Conditional && st.Game.Reason == rules.Agreed:
				s.events = append(s.events, templates.Happening{Event: templates.ConditionalDraw, By: e.By.Handle})
			case st.Game.Reason == rules.OutOfTime:
				w.log.Info("lost on time", "game", st.ID(), "player", st.ToMove().Handle)
			case st.Game.Reason == rules.Resigned && w.IsRobot(e.By):
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
			s.events = append(s.events, templates.Happening{Event: offerWords[e.Kind], By: e.By.Handle, Conditional: e.Conditional})
		case game.PauseAsked, game.Paused, game.Unpaused:
			s.events = append(s.events, templates.Happening{Event: pauseWords[e.Kind], By: e.By.Handle, Left: st.PauseLeft()})
		case game.TimeGiven:
			s.events = append(s.events, templates.Happening{Event: templates.TimeGiven, By: e.By.Handle, Given: e.Given,
				Receiver: st.Opponent(e.By.ID).Handle})
		}
		s.perMove = false
	}
	if len(ended) == 0 || w.GamesEnded == nil {
		return nil
	}
	return w.GamesEnded(ctx, w, ended)
}

// story returns the story of the game of st in this work, begun by by
// when it is new, and brings its game up to st.
func (w *Work) story(st game.State, by db.Player) *story {
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

// TellMessage records a player's message for their opponent in st, sent
// alone, without a change to the game: it goes in a mail of its own
// (M19).
func (w *Work) TellMessage(st game.State, from db.Player, message *templates.Message) {
	opp := st.Opponent(from.ID)
	s := w.story(st, from)
	s.message, s.only = message, &opp
}

// Relayed reports whether a story of game holds the message of its
// player from, and returns from's opponent in it; withBoard is set when
// the message goes with a board mail that from gets now too (a change to
// the game), rather than alone.
func (w *Work) Relayed(game int64, from db.Player) (opp db.Player, relayed, withBoard bool) {
	for _, s := range w.stories {
		if s.st.ID() == game && s.message != nil && s.message.By == from.Handle {
			return s.st.Opponent(from.ID), true, s.only == nil && !w.waits(s)
		}
	}
	return db.Player{}, false, false
}

// waits reports whether the board mails of the story wait for the
// robot's answer, which brings its moves in a mail of its own, later.
func (w *Work) waits(s *story) bool {
	return s.perMove && w.RobotWaits(&s.st)
}

// mailed returns the story of game whose board mail player gets with
// this work, if any.
func (w *Work) mailed(game int64, player db.Player) *story {
	for _, s := range w.stories {
		if s.st.ID() == game && s.only == nil && s.st.Game.Has(player.ID) && !w.waits(s) {
			return s
		}
	}
	return nil
}

// Mails reports whether player gets a board mail of the story of game
// with this work, to which AddToMail may add paragraphs.
func (w *Work) Mails(game int64, player db.Player) bool {
	return w.mailed(game, player) != nil
}

// AddToMail adds paragraphs to the board mail of the story of game to
// player, when they get one (Mails).
func (w *Work) AddToMail(game int64, player db.Player, texts ...string) {
	if s := w.mailed(game, player); s != nil {
		for _, t := range texts {
			s.note(player.ID, t)
		}
	}
}

// AddFirstToMail adds paragraphs to the board mail of the story of game
// to player, when they get one (Mails), below the line that names the
// game, before what happened: what their mail asked for in words and did
// not get (M58).
func (w *Work) AddFirstToMail(game int64, player db.Player, texts ...string) {
	if s := w.mailed(game, player); s != nil {
		if s.first == nil {
			s.first = map[int64][]string{}
		}
		s.first[player.ID] = append(s.first[player.ID], texts...)
	}
}

// Flush mails the stories of the work, one mail to each recipient of
// each game, in the order the games were first told.
func (w *Work) Flush(ctx context.Context) error {
	stories := w.stories
	w.stories = nil
	for _, s := range stories {
		data := templates.BoardData{Moves: s.moves, Events: s.events, Last: s.last}
		if s.only != nil {
			data.Game, data.To, data.Message = GameWords(&s.st), s.only.Handle, s.message
			data.Board = templates.ViewOf(s.st.Pos, s.st.Side(s.only.ID))
			if err := w.BoardMail(ctx, &s.st, *s.only, data); err != nil {
				return err
			}
			continue
		}
		if err := w.announce(ctx, &s.st, data, s.actor, s.message, s.perMove, storyNotes{s.notes, s.first}); err != nil {
			return err
		}
	}
	return nil
}

// FlushGames mails the stories of the games ids now, before the rest of
// the work's.
func (w *Work) FlushGames(ctx context.Context, ids []int64) error {
	var now, later []*story
	for _, s := range w.stories {
		if slices.Contains(ids, s.st.ID()) {
			now = append(now, s)
		} else {
			later = append(later, s)
		}
	}
	w.stories = now
	err := w.Flush(ctx)
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

// pauseWords are the board mails' words for the events of pauses (M63).
var pauseWords = map[game.Kind]templates.Event{
	game.PauseAsked: templates.PauseAsked,
	game.Paused:     templates.Paused,
	game.Unpaused:   templates.Unpaused,
}

// noteEvent notes an event for the summary of the work.
func (w *Work) noteEvent(e game.Event) {
	id, robot := e.Game.ID(), w.IsRobot(e.By)
	switch {
	case e.Kind == game.Moved:
		w.Note(fmt.Sprintf("move %d %s", id, e.Move.Move))
	case e.Kind == game.Accepted:
		w.Note(fmt.Sprintf("accept %d", id))
	case e.Kind == game.DrawOffered:
		w.Note(fmt.Sprintf("draw %d: offered", id))
	case e.Kind == game.DrawDeclined && robot:
		w.Note(fmt.Sprintf("draw %d: declined by the robot", id))
	case e.Kind == game.DrawDeclined:
		w.Note(fmt.Sprintf("nodraw %d", id))
	case e.Kind == game.TakebackAsked:
		w.Note(fmt.Sprintf("takeback %d: asked", id))
	case e.Kind == game.TakebackDone:
		w.Note(fmt.Sprintf("takeback %d: done", id))
	case e.Kind == game.PauseAsked:
		w.Note(fmt.Sprintf("pause %d: asked", id))
	case e.Kind == game.Paused:
		w.Note(fmt.Sprintf("pause %d: agreed", id))
	case e.Kind == game.Unpaused && e.By.ID == 0:
		w.Note(fmt.Sprintf("resume %d: the pauses took their 30 days", id))
	case e.Kind == game.Unpaused:
		w.Note(fmt.Sprintf("resume %d", id))
	case e.Kind == game.TimeGiven:
		w.Note(fmt.Sprintf("give %d: %v", id, e.Given))
	case e.Kind == game.TimeUp:
		w.Note(fmt.Sprintf("time up %d: to claim", id))
	case e.Kind == game.Ended && e.Game.Game.Reason == rules.OutOfTime && e.By.ID != 0:
		w.Note(fmt.Sprintf("claim %d", id))
	case e.Kind != game.Ended:
	case e.Game.Game.Reason == rules.OutOfTime:
		w.Note("time out")
	case e.Game.Game.Reason == rules.Resigned && robot:
		w.Note(fmt.Sprintf("robot resigns %d", id))
	case e.Game.Game.Reason == rules.Resigned:
		w.Note(fmt.Sprintf("resign %d", id))
	case e.Game.Game.Reason == rules.Agreed && robot:
		w.Note(fmt.Sprintf("draw %d: agreed by the robot", id))
	case e.Game.Game.Reason == rules.Agreed:
		w.Note(fmt.Sprintf("draw %d: agreed", id))
	case e.Game.Game.Reason == rules.Aborted:
		w.Note(fmt.Sprintf("abort %d", id))
	}
}

// Announce sends the board of st to both players, each from their side,
// and to the observers, with what data says happened (a game begun by
// the robot's acceptance, say), and to each player the paragraphs of
// notes for them, by id.
func (w *Work) Announce(ctx context.Context, st *game.State, data templates.BoardData, actor *db.Player, notes map[int64][]string) error {
	return w.announce(ctx, st, data, actor, nil, false, storyNotes{after: notes})
}

// storyNotes are the paragraphs of a story for one player alone, by id:
// those after what happened, and those first (M58).
type storyNotes struct {
	after, first map[int64][]string
}

// announce sends the board to both players, each from their side, and to
// the observers, with what data says happened, and to each player the
// notes for them. actor, when not nil, is the player who caused it: the
// message goes to the other. A perMove mail does not go to a player
// other than actor who asked for no mail per move (M18), unless the game
// is over. The first mail of a game without a thread starts it (M9).
// When the robot is to move, the mails about a move wait for its answer,
// and then show both moves.
func (w *Work) announce(ctx context.Context, st *game.State, data templates.BoardData, actor *db.Player, message *templates.Message, perMove bool, n storyNotes) error {
	if perMove && w.RobotWaits(st) {
		return nil // the robot's answer brings the move
	}
	data.Game = GameWords(st)
	data.Moves, w.Earlier = append(slices.Clone(w.Earlier), data.Moves...), nil
	if w.Opening > 0 {
		// The robot's first move is the first mail of the game: it goes
		// out whatever the challenger's notify setting, as the answer
		// to a challenge does.
		data.Level, data.Robot = w.Opening, w.robot
		w.Opening, perMove = 0, false
	}
	players := []db.Player{st.White, st.Black}
	if actor != nil && actor.ID == st.Game.White {
		players = []db.Player{st.Black, st.White}
	}
	observers, err := w.Tx.Observers(ctx, st.ID())
	if err != nil {
		return err
	}
	cause := w.Cause
	defer func() { w.Cause = cause }()
	for i, to := range slices.Concat(players, observers) {
		if i == len(players) {
			// An observer's mails are their own choice, the server's to
			// send: they cost the player who moved nothing of their
			// budget (outbox.Outbox.Budget).
			w.Cause = ""
		}
		isActor := actor != nil && to.ID == actor.ID
		if perMove && !isActor && st.Active() && to.Notify != db.NotifyEach && to.Notify != "" {
			continue
		}
		data.To, data.Message, data.Notes, data.First = to.Handle, nil, n.after[to.ID], n.first[to.ID]
		if !isActor && i < len(players) {
			data.Message = message
		}
		data.Board = templates.ViewOf(st.Pos, st.Side(to.ID)).WithLast(data.Last)
		data.Drowning, data.Attack = nil, nil
		if st.Active() && to.ID == st.ToMove().ID {
			data.Drowning = templates.DrowningOf(st.Pos)
			data.Attack = templates.LionAttackOn(st.Pos, st.Opponent(to.ID).Handle)
		}
		if err := w.BoardMail(ctx, st, to, data); err != nil {
			return err
		}
	}
	return nil
}

// remind tells the player to move how much time is left.
func (w *Work) remind(ctx context.Context, st *game.State, final bool) error {
	to := st.ToMove()
	data := templates.BoardData{Game: GameWords(st), To: to.Handle, Board: templates.ViewOf(st.Pos, st.Pos.Turn()),
		Events:   []templates.Happening{{Event: templates.Reminder, Until: st.Deadline(), Final: final}},
		Drowning: templates.DrowningOf(st.Pos), Attack: templates.LionAttackOn(st.Pos, st.Opponent(to.ID).Handle)}
	return w.BoardMail(ctx, st, to, data)
}

// timeUp tells both players of a timeout=claim game that the player to
// move ran out of time (M66): the opponent how to claim the win, the
// late player that they may still move.
func (w *Work) timeUp(ctx context.Context, st *game.State) error {
	late := st.ToMove()
	for _, to := range []db.Player{st.Opponent(late.ID), late} {
		if w.IsRobot(to) {
			continue // never mailed
		}
		data := templates.BoardData{Game: GameWords(st), To: to.Handle, Board: templates.ViewOf(st.Pos, st.ColorOf(to.ID)),
			Events: []templates.Happening{{Event: templates.TimeUp, By: late.Handle}}}
		if to.ID == late.ID {
			data.Drowning = templates.DrowningOf(st.Pos)
		}
		if err := w.BoardMail(ctx, st, to, data); err != nil {
			return err
		}
	}
	return nil
}

// vacationNotice tells p's opponent in st that p went on vacation.
func (w *Work) vacationNotice(ctx context.Context, st *game.State, p db.Player) error {
	opp := st.Opponent(p.ID)
	data := templates.BoardData{Game: GameWords(st), To: opp.Handle, Board: templates.ViewOf(st.Pos, st.ColorOf(opp.ID)),
		Events: []templates.Happening{{Event: templates.VacationStarted, By: p.Handle, Until: p.VacationUntil}}}
	return w.BoardMail(ctx, st, opp, data)
}

// BoardMail sends one board mail about st, in the game's thread, with
// its HTML alternative (M12); the first mail of a game starts the thread.
// The mail of the board now to the player to move has their moves as
// one-tap links in its HTML part (M71).
func (w *Work) BoardMail(ctx context.Context, st *game.State, to db.Player, data templates.BoardData) error {
	data.Lang = w.Lang(to)
	if !data.Past && data.Board.Position == st.Game.Position {
		data.Taps = w.Taps(st, to)
	}
	if err := w.Subject(ctx, &data.Game, to); err != nil {
		return err
	}
	data.Page = w.GamePageFor(st.Game, to)
	// Rendered as the mail is composed, in another goroutine: data is
	// this mail's own (Board clones what it changes).
	id, err := w.RenderedGameMail(ctx, to, st.Game, func(o *mailmsg.Outgoing) (err error) {
		o.Subject, o.Text, o.HTML, err = templates.BoardMail(data)
		return err
	})
	if err != nil {
		return err
	}
	if st.Game.ThreadRoot == "" && id != "" {
		if err := w.SetThreadRoot(ctx, st.ID(), id); err != nil {
			return err
		}
		st.Game.ThreadRoot = id
	}
	return nil
}

// RobotWaits reports whether the board mails about a move in st wait for
// the robot's answer: it is the robot's move.
func (w *Work) RobotWaits(st *game.State) bool {
	return st.Active() && w.IsRobot(st.ToMove())
}
