package templates

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// diagram is a board as rules.Position.Diagram draws it.
const diagram = `   a b c d e f g
7  g m|e l e|c z  7
6  p p|p p p|p p  6
5  . .|. . .|. .  5
4  ~ ~ ~ ~ ~ ~ ~  4  river
3  . P|. . .|. .  3
2  P .|P P P|P P  2
1  G M|E L E|C Z  1
   a b c d e f g
`

var (
	playing = Game{ID: 42, White: "alice", Black: "bob", State: Playing, ToMove: "bob", MoveNumber: 1}
	view    = View{Diagram: diagram, Position: "gmelecz/ppppppp/7/7/7/1P5/P1PPPPP/GMELECZ b 1"}
)

// mail is a rendered mail: what a golden file holds.
type mail struct {
	subject, body string
}

func (m mail) String() string {
	return "Subject: " + m.subject + "\n\n" + m.body
}

func TestGolden(t *testing.T) {
	t.Parallel()
	won := playing
	won.State, won.ToMove, won.Winner, won.Reason = Won, "", "alice", rules.LionCaptured
	resigned := won
	resigned.Winner, resigned.Reason = "bob", rules.Resigned
	over := won
	over.ID = 43
	drawn := playing
	drawn.State, drawn.ToMove, drawn.Reason = Drawn, "", rules.BareLions
	started := playing
	started.ToMove = "alice"
	challenge := Game{ID: 42, White: "alice", Black: "bob", State: Challenged}
	declined := challenge
	declined.State = Declined
	comment := &Message{By: "alice", Text: "Good luck!\n\nI have been waiting for this."}
	clocked := playing
	clocked.WhiteRating, clocked.BlackRating, clocked.TimeControl = 1532, 1468, "days=3"
	clocked.Clocks = &Clocks{White: Clock{Left: 3 * 24 * time.Hour}, Black: Clock{Left: 52*time.Hour + 7*time.Minute}}
	until := time.Date(2025, 3, 7, 12, 0, 0, 0, time.UTC)
	onVacation := clocked
	onVacation.Clocks = &Clocks{White: Clock{Left: 3 * 24 * time.Hour}, Black: Clock{Left: 40 * time.Hour, Vacation: until}}
	agreed := drawn
	agreed.Reason = rules.Agreed
	timeOut := won
	timeOut.Reason = rules.OutOfTime
	aborted := Game{ID: 42, White: "alice", Black: "bob", State: Aborted, Reason: rules.Aborted}
	weekendly := clocked
	weekendly.Clocks = &Clocks{White: Clock{Left: 3 * 24 * time.Hour, Weekends: "Asia/Tokyo"},
		Black: Clock{Left: 52*time.Hour + 7*time.Minute, Weekends: "Europe/Prague"}}
	paused := clocked
	paused.ID, paused.Paused, paused.PauseLeft = 44, until.Add(-3*24*time.Hour), 27*24*time.Hour
	late := clocked
	late.ID, late.TimeoutClaim = 45, true
	late.Clocks = &Clocks{White: Clock{Left: 3 * 24 * time.Hour}, Black: Clock{Out: true}}

	tests := []struct {
		name   string
		render func(l lang.Code) (string, string, error)
	}{
		{"board_accepted", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: started, To: "alice", Board: view, Events: []Happening{{Event: Accepted, By: "bob"}}})
		}},
		{"board_move", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: playing, To: "bob", Board: view, Message: &Message{By: "alice", Text: "Your move."},
				Moves: []Move{{By: "alice", Notation: "b2-b3", Piece: "pawn", To: "b3"}}})
		}},
		{"board_message", func(l lang.Code) (string, string, error) { // words alone, no command (M19)
			return Board(BoardData{Lang: l, Game: clocked, To: "alice", Board: view, Message: &Message{By: "bob", Text: "Sorry, I am travelling: I will move on Sunday."}})
		}},
		{"board_move_mover", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: playing, To: "alice", Board: view,
				Moves: []Move{{By: "alice", Notation: "b2-b3", Piece: "pawn", To: "b3"}}})
		}},
		{"board_chain_capture", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: playing, To: "bob", Board: view, Moves: []Move{{
				By: "alice", Notation: "b1xd3xf5", Piece: "monkey", To: "f5",
				Captured: []Piece{{"pawn", "c2"}, {"pawn", "e4"}, {"zebra", "f6"}},
				Drowned:  []Piece{{"giraffe", "a4"}},
			}}})
		}},
		{"board_promotion", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: playing, To: "bob", Board: view, Moves: []Move{{
				By: "alice", Notation: "c6xd7", Piece: "pawn", To: "d7", Captured: []Piece{{"lion", "d7"}}, Promoted: true,
			}}})
		}},
		{"board_won", func(l lang.Code) (string, string, error) {
			g := won
			g.RatingsChanged, g.WhiteChange, g.BlackChange = true, 12, -12
			g.WhiteRating, g.BlackRating = 1512, 1488
			return Board(BoardData{Lang: l, Game: g, To: "bob", Board: view, Moves: []Move{{
				By: "alice", Notation: "d3xd5", Piece: "lion", To: "d5", Captured: []Piece{{"lion", "d5"}},
			}}})
		}},
		// With the web on, every board mail names its game's page (M43).
		{"board_web_page", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view, Page: "https://congo.example.org/games/42",
				Moves: []Move{{By: "alice", Notation: "b2-b3", Piece: "pawn", To: "b3"}}})
		}},
		{"board_won_web_page", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: won, To: "bob", Board: view, Page: "https://congo.example.org/games/42", Moves: []Move{{
				By: "alice", Notation: "d3xd5", Piece: "lion", To: "d5", Captured: []Piece{{"lion", "d5"}},
			}}})
		}},
		{"board_robot_accepted", func(l lang.Code) (string, string, error) {
			g := started
			g.Black = "robot"
			return Board(BoardData{Lang: l, Game: g, To: "alice", Board: view, Level: 2, Robot: "robot"})
		}},
		{"board_robot_answer", func(l lang.Code) (string, string, error) {
			g := started
			g.Black = "robot"
			return Board(BoardData{Lang: l, Game: g, To: "alice", Board: view,
				Moves: []Move{{By: "alice", Notation: "b2-b3", Piece: "pawn", To: "b3"},
					{By: "robot", Notation: "c6xb5", Piece: "pawn", To: "b5", Captured: []Piece{{"pawn", "b5"}}}}})
		}},
		{"board_robot_resigned", func(l lang.Code) (string, string, error) {
			g := resigned
			g.White, g.Winner = "robot", "bob"
			return Board(BoardData{Lang: l, Game: g, To: "bob", Board: view, Events: []Happening{{Event: RobotResigned, By: "robot"}},
				Moves: []Move{{By: "bob", Notation: "d6xd1", Piece: "lion", To: "d1", Captured: []Piece{{"elephant", "d1"}}}}})
		}},
		{"board_drowning", func(l lang.Code) (string, string, error) {
			d := lastMoveBoard(t)
			d.Lang = l
			return Board(d)
		}},
		{"reply_help_robot", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "help", Sections: []Section{Help{Robot: "robot", RobotLevel: 3, AnalysesPerDay: 5}}})
		}},
		{"reply_robot_errors", func(l lang.Code) (string, string, error) {
			g := playing
			g.Black, g.ToMove = "robot", "alice"
			return Reply(ReplyData{Lang: l, Subject: "", Sections: []Section{
				Error{Line: "challenge congo bob level=2", Problem: LevelForHuman, Handle: "bob"},
				Error{Line: "takeback congo 42", Problem: RobotTakeback, Handle: "robot", GameID: 42, Game: &g, Board: &view},
			}})
		}},
		{"board_resigned", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: resigned, To: "alice", Board: view})
		}},
		{"board_drawn", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: drawn, To: "alice", Board: view})
		}},
		{"board_request", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: playing, To: "bob", Board: view})
		}},
		{"challenge", func(l lang.Code) (string, string, error) {
			return Challenge(ChallengeData{Lang: l, Game: challenge, To: "bob", Challenger: "alice", Challenged: "bob", Message: comment})
		}},
		{"challenge_sent", func(l lang.Code) (string, string, error) {
			return ChallengeSent(ChallengeData{Lang: l, Game: challenge, To: "alice", Challenger: "alice", Challenged: "bob"})
		}},
		{"declined_challenger", func(l lang.Code) (string, string, error) {
			return ChallengeDeclined(ChallengeData{Lang: l, Game: declined, To: "alice", Challenger: "alice", Challenged: "bob",
				Message: &Message{By: "bob", Text: "Not today."}})
		}},
		{"declined_challenged", func(l lang.Code) (string, string, error) {
			return ChallengeDeclined(ChallengeData{Lang: l, Game: declined, To: "bob", Challenger: "alice", Challenged: "bob"})
		}},
		{"reply_help", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "help", Sections: []Section{Help{}}})
		}},
		{"reply_register", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "register alice", Sections: []Section{
				Registered{Handle: "alice", Personal: "congo+abcdefghijklmnopqrstuvwxyz@example.org"},
			}})
		}},
		{"reply_register_robot", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "register alice", Sections: []Section{
				Registered{Handle: "alice", Personal: "congo+abcdefghijklmnopqrstuvwxyz@example.org", Robot: "robot"},
			}})
		}},
		{"reply_register_again", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "Re: lost", Sections: []Section{
				Registered{Handle: "alice", Personal: "congo+abcdefghijklmnopqrstuvwxyz@example.org", Already: true, Asked: "alicia"},
			}})
		}},
		{"reply_register_provisional", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "register alice", OwnSubject: true, Sections: []Section{
				Registered{Handle: "Carol_is_a_cheat", Personal: "congo+abcdefghijklmnopqrstuvwxyz@example.org", Confirm: true},
			}})
		}},
		{"reply_register_rename", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "", Sections: []Section{
				Registered{Handle: "alice", Personal: "congo+abcdefghijklmnopqrstuvwxyz@example.org", Already: true, Asked: "alicia", Rename: true},
			}})
		}},
		{"reply_renamed", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "Re: Welcome to Congo, Carol_is_a_cheat", Sections: []Section{
				Renamed{Old: "Carol_is_a_cheat", New: "carol"},
			}})
		}},
		{"reply_unproven", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "Urgent: verify your account at http://phish.example/login", OwnSubject: true,
				Sections: []Section{HowToRegister{Lines: []string{"Hello [link removed] now"}}}})
		}},
		{"reply_newkey", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "newkey", Sections: []Section{
				NewKey{Personal: "congo+abcdefghijklmnopqrstuvwxyz@example.org"},
			}})
		}},
		{"reply_games", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "games", Sections: []Section{GameList{
				YourMove:  []Game{{ID: 3, White: "alice", Black: "bob", State: Playing, ToMove: "alice", MoveNumber: 12}},
				ToAnswer:  []Game{{ID: 7, White: "carol", Black: "alice", State: Challenged}},
				TheirMove: []Game{{ID: 5, White: "dave", Black: "alice", State: Playing, ToMove: "dave", MoveNumber: 4}},
				Sent:      []Game{{ID: 8, White: "alice", Black: "erin", State: Challenged}},
				Finished: []Game{
					{ID: 1, White: "alice", Black: "bob", State: Won, Winner: "bob", Reason: rules.Resigned},
					{ID: 2, White: "bob", Black: "alice", State: Drawn, Reason: rules.BareLions},
				},
			}}})
		}},
		{"reply_games_none", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "games", Sections: []Section{GameList{}}})
		}},
		{"reply_errors", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "", Sections: []Section{
				Error{Line: "hello there", Problem: NotUnderstood, Reason: Phrase{`unknown command %s; send "help" for the list of commands`, []any{`"hello"`}}},
				Error{Line: "challenge congo zed", Problem: NoSuchPlayer, Handle: "zed"},
				Error{Line: "move congo 42 b2-b5", Problem: IllegalMove, GameID: 42, Game: &playing, Board: &view,
					Move: "b2-b5", Reason: Phrase{"the %s on %s can go to %s", []any{rules.Pawn, "b2", "b3, a3, c3"}}},
				Error{Line: "move congo 42 b6-b5 #3", Problem: StaleMoveNumber, GameID: 42, Game: &playing, Board: &view},
				Error{Line: "move congo 43 b2-b3", Problem: NotActive, GameID: 43, Game: &over, Board: &view},
			}})
		}},
		{"reply_prove", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "Re: Congo game 42: alice vs bob - bob to move", Sections: []Section{
				Help{}, // answered all the same: the answer goes to the registered address
				Prove{Personal: "congo+abcdefghijklmnopqrstuvwxyz@example.org", Lines: []string{"b6-b5", "resign congo 41"}},
			}})
		}},
		{"reply_how_to_register", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "hi", Sections: []Section{
				HowToRegister{Lines: []string{"challenge congo bob"}},
			}})
		}},
		{"reply_not_registered", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "hi", Sections: []Section{HowToRegister{}}})
		}},
		{"board_challenge", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: challenge, To: "alice", Board: view})
		}},
		{"reply_rules", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "rules", Sections: []Section{RulesSummary{}}})
		}},
		{"reply_no_command", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "RE: hello", Sections: []Section{NoCommand{}}})
		}},

		// Correspondence play.
		{"board_clocks", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view, Moves: []Move{{By: "alice", Notation: "b2-b3", Piece: "pawn", To: "b3"}}})
		}},
		{"board_conditional", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view,
				Moves: []Move{{By: "alice", Notation: "b2-b3", Piece: "pawn", To: "b3", Conditional: true}}})
		}},
		{"board_draw_offered", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view, Events: []Happening{{Event: DrawOffered, By: "alice"}}})
		}},
		{"board_draw_offered_offerer", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "alice", Board: view, Events: []Happening{{Event: DrawOffered, By: "alice"}}})
		}},
		{"board_draw_declined", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "alice", Board: view, Events: []Happening{{Event: DrawDeclined, By: "bob"}}})
		}},
		{"board_draw_agreed", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: agreed, To: "alice", Board: view})
		}},
		{"board_takeback_asked", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view, Events: []Happening{{Event: TakebackAsked, By: "alice"}}})
		}},
		{"board_takeback_done", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "alice", Board: view, Events: []Happening{{Event: TakebackDone, By: "bob"}}})
		}},
		{"board_vacation", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: onVacation, To: "alice", Board: view, Events: []Happening{{Event: VacationStarted, By: "bob", Until: until}}})
		}},
		{"board_reminder", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view, Events: []Happening{{Event: Reminder, Until: until}}})
		}},
		{"board_reminder_final", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view, Events: []Happening{{Event: Reminder, Until: until, Final: true}}})
		}},
		{"board_time_out", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: timeOut, To: "bob", Board: view})
		}},
		{"board_aborted", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: aborted, To: "bob", Board: view})
		}},
		{"board_past", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view, Past: true, At: 3})
		}},
		{"board_seek_started", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view, Events: []Happening{{Event: Started}}})
		}},
		{"challenge_terms", func(l lang.Code) (string, string, error) {
			terms := challenge
			terms.TimeControl, terms.Unrated = "bank=10+1", true
			return Challenge(ChallengeData{Lang: l, Game: terms, To: "bob", Challenger: "alice", Challenged: "bob"})
		}},
		{"digest", func(l lang.Code) (string, string, error) {
			return Digest(DigestData{Lang: l, To: "bob", Games: []DigestGame{{Game: clocked, Board: view}}})
		}},
		{"reply_correspondence", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "settings", Sections: []Section{
				ConditionalList{GameID: 42, Added: 2, Branches: [][]string{{"c6-c5", "b2-b3", "d6-d5", "c2-c3"}, {"a6-a5", "a2-a3"}}},
				ConditionalList{GameID: 43, Cleared: 1},
				Observing{Game: clocked, On: true, Changed: true},
				Observing{Game: clocked},
				Seeking{TimeControl: "days=3", Rating: 1500},
				Seeking{TimeControl: "days=5", Rating: 1500, RatingLow: 1400, RatingHigh: 1700},
				Seeking{TimeControl: "bank=10+1", Unrated: true, Started: 44},
				Seeking{TimeControl: "days=5", RatingLow: 1400, RatingHigh: 1700, Started: 45},
				Seeking{Off: true, Had: true},
				NotifySet{Mode: "each"},
				NotifySet{Mode: "digest"},
				NotifySet{Mode: "off"},
				VacationSet{Until: until, Left: 5 * 24 * time.Hour, Games: 2},
				VacationSet{Off: true, Left: 9*24*time.Hour + 3*time.Hour},
				Ratings{Rows: []Rating{{1, "alice", 1662, 1}, {2, "bob", 1338, 1}}},
				Ratings{},
				Record{GameID: 42, Text: "[Event \"Congo game 42\"]\n[Result \"*\"]\n\n1. b2-b3 *"},
			}})
		}},
		// Time as players ask for it (M63-M67).
		{"board_weekends", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: weekendly, To: "bob", Board: view, Moves: []Move{{By: "alice", Notation: "b2-b3", Piece: "pawn", To: "b3"}}})
		}},
		{"board_pause_asked", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view, Events: []Happening{{Event: PauseAsked, By: "alice", Left: 30 * 24 * time.Hour}}})
		}},
		{"board_pause_asked_asker", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "alice", Board: view, Events: []Happening{{Event: PauseAsked, By: "alice", Left: 30 * 24 * time.Hour}}})
		}},
		{"board_paused", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: paused, To: "alice", Board: view, Events: []Happening{{Event: Paused, By: "bob", Left: 27 * 24 * time.Hour}}})
		}},
		{"board_unpaused", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view, Events: []Happening{{Event: Unpaused, By: "alice", Left: 20*24*time.Hour + 6*time.Hour}}})
		}},
		{"board_unpaused_by_itself", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view, Events: []Happening{{Event: Unpaused}}})
		}},
		{"board_time_given", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "bob", Board: view, Events: []Happening{{Event: TimeGiven, By: "alice", Receiver: "bob", Given: 2 * 24 * time.Hour}}})
		}},
		{"board_time_given_giver", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: clocked, To: "alice", Board: view, Events: []Happening{{Event: TimeGiven, By: "alice", Receiver: "bob", Given: 12 * time.Hour}}})
		}},
		{"board_time_up", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: late, To: "alice", Board: view, Events: []Happening{{Event: TimeUp, By: "bob"}}})
		}},
		{"board_time_up_late", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: late, To: "bob", Board: view, Events: []Happening{{Event: TimeUp, By: "bob"}}})
		}},
		{"board_reminder_claim", func(l lang.Code) (string, string, error) {
			g := clocked
			g.TimeoutClaim = true
			return Board(BoardData{Lang: l, Game: g, To: "bob", Board: view, Events: []Happening{{Event: Reminder, Until: until, Final: true}}})
		}},
		{"challenge_claim", func(l lang.Code) (string, string, error) {
			terms := challenge
			terms.TimeControl, terms.TimeoutClaim = "days=5", true
			return Challenge(ChallengeData{Lang: l, Game: terms, To: "bob", Challenger: "alice", Challenged: "bob"})
		}},
		{"reply_time", func(l lang.Code) (string, string, error) {
			prague := time.FixedZone("CET", 3600)
			return Reply(ReplyData{Lang: l, Subject: "settings", Sections: []Section{
				TimeSet{Zone: "Europe/Prague", Now: until.In(prague), Changed: true},
				TimeSet{Zone: "Europe/Prague", Now: until.In(prague), Weekends: true, Next: time.Date(2025, 3, 8, 0, 0, 0, 0, prague), Changed: true},
				TimeSet{Zone: "UTC", Now: until},
			}})
		}},
		{"reply_games_time", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "games", Sections: []Section{GameList{
				YourMove: []Game{weekendly, late}, TheirMove: []Game{paused}}}})
		}},
		{"reply_problems_time", func(l lang.Code) (string, string, error) {
			var secs []Section
			tournamentGame := playing
			tournamentGame.Event = "Spring Cup"
			for _, p := range timeProblems {
				e := Error{Line: "line of " + string(p), Problem: p, Handle: "bob", GameID: 42, Game: &tournamentGame,
					Detail: "Mars/Olympus", Left: 2*24*time.Hour + 5*time.Hour, Until: until}
				secs = append(secs, e)
			}
			return Reply(ReplyData{Lang: l, Sections: secs})
		}},
		{"reply_games_clocks", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "games bob", Sections: []Section{GameList{Of: "bob",
				YourMove: []Game{clocked}, Finished: []Game{timeOut, aborted}}}})
		}},

		// The notices of the answers, and the language.
		{"reply_notices", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "Re: Congo game 42: alice vs bob", Sections: []Section{
				Relayed{To: "bob"},
				NotRelayed{GameID: 7},
				Omitted{Lines: 1},
				Omitted{Lines: 4},
				Cut{Why: Phrase{"more than %d parts", []any{100}}},
				LoopNotice{Mails: 5, Quiet: time.Hour},
			}})
		}},
		{"reply_language", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "", Sections: []Section{LanguageSet{Lang: l}}})
		}},
		// Every problem of a command, in the words of the mails.
		{"reply_problems", func(l lang.Code) (string, string, error) {
			over := won
			var secs []Section
			for _, p := range everyProblem {
				e := Error{Line: "line of " + string(p), Problem: p, Handle: "zed", GameID: 42, Game: &playing, Detail: "9",
					Left: 2*24*time.Hour + 5*time.Hour, Until: until, Move: "b2-b5",
					Reason: Phrase{"the %s on %s can go to %s", []any{rules.Pawn, "b2", "b3, a3, c3"}}}
				if strings.Contains(string(p), "tournament") || slices.Contains([]Problem{NotDirector, TooFewPlayers, Joined, NotAPlayer}, p) {
					e.Tournament = &Tournament{ID: 3, Name: "Spring Cup", Director: "alice", Status: "open", Players: []string{"alice"}, MinPlayers: 3}
				}
				switch p {
				case NotActive:
					e.Game = &over
				case NotChallenged:
					e.Game = &challenge
				case NotDirector:
					e.Detail = "cancel"
				case NotUnderstood:
					e.Reason = Phrase{`unknown command %s; send "help" for the list of commands`, []any{`"hello"`}}
				case BadConditional:
					e.Move, e.Reason = "", Phrase{"you answer %s with %s already", []any{"c6-c5", "b2-b3"}}
				case NoSuchMove:
					e.Detail = "#9"
				case TournamentAbort:
					e.Detail = "Spring Cup"
				case TooManyRobotGames:
					e.Detail = "10"
				case TooManyChallenges:
					e.Detail = "20"
				case TooManyNotes:
					e.Detail = "32768"
				case BadPosition:
					e.Move, e.Reason = "", Phrase{"the lion on %s stands outside its castle", []any{"a7"}}
				case BadPreview:
					e.Move, e.Reason = "", Phrase{"the game is over before %s", []any{"c6-c5"}}
				}
				secs = append(secs, e)
			}
			return Reply(ReplyData{Lang: l, Sections: secs})
		}},
	}
	for _, tt := range tests {
		for _, l := range lang.All {
			name := goldenName(tt.name, l)
			t.Run(name, func(t *testing.T) {
				subject, body, err := tt.render(l)
				if err != nil {
					t.Fatalf("render: %v", err)
				}
				got := mail{subject, body}.String()
				checkGolden(t, name, got)
				checkMailText(t, l, subject, body)
			})
		}
	}
}

// goldenName is the name of the golden file of mail name in language l:
// "board_move" in English, "board_move.ja" in Japanese.
func goldenName(name string, l lang.Code) string {
	if l == lang.English {
		return name
	}
	return name + "." + string(l)
}

// checkGolden compares got with testdata/name.golden, or rewrites the file
// under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (-want +got):\n%s", name, path, lineDiff(string(want), got))
	}
}

// checkMailText checks what every mail must be: a one-line subject, and a
// body ending in the footer of its language, with no trailing spaces but
// the signature separator's, no runs of blank lines, and no line wider
// than 72 columns but an indented one (a board, a command, a figure).
func checkMailText(t *testing.T, l lang.Code, subject, body string) {
	t.Helper()
	if subject == "" || strings.ContainsAny(subject, "\r\n") {
		t.Errorf("subject %q is empty or not one line", subject)
	}
	footer, err := tongueOf(l).execute("footer", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(footer, "-- \n") || !strings.HasSuffix(body, "\n"+footer) {
		t.Errorf("body does not end in the footer:\n%s", body)
	}
	lines := strings.Split(body, "\n")
	for i, line := range lines {
		if line != "-- " && strings.TrimRight(line, " ") != line {
			t.Errorf("line %d %q has trailing spaces", i+1, line)
		}
		if i > 0 && line == "" && lines[i-1] == "" {
			t.Errorf("blank lines run at line %d", i+1)
		}
		if n := columns(line); n > width && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, ">") && strings.Contains(line, " ") {
			t.Errorf("line %d is %d columns wide: %q", i+1, n, line)
		}
	}
}

// lineDiff lists the lines that differ, "-" for want and "+" for got.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl || i >= len(w) || i >= len(g) {
			if i < len(w) {
				b.WriteString("-" + wl + "\n")
			}
			if i < len(g) {
				b.WriteString("+" + gl + "\n")
			}
		}
	}
	return b.String()
}

func TestSubject(t *testing.T) {
	t.Parallel()
	tests := []struct {
		game Game
		want string
	}{
		// The same Subject from the challenge to the result (M22).
		{Game{ID: 42, White: "alice", Black: "bob", State: Playing, ToMove: "bob"}, "Congo game 42: alice vs bob"},
		{Game{ID: 42, White: "alice", Black: "bob", State: Won, Winner: "alice", Reason: rules.LionCaptured}, "Congo game 42: alice vs bob"},
		{Game{ID: 42, White: "alice", Black: "bob", State: Drawn, Reason: rules.BareLions}, "Congo game 42: alice vs bob"},
		{Game{ID: 7, White: "bob", Black: "alice", State: Challenged}, "Congo game 7: bob vs alice"},
		{Game{ID: 7, White: "bob", Black: "alice", State: Declined}, "Congo game 7: bob vs alice"},
	}
	for _, tt := range tests {
		got, _, err := Board(BoardData{Game: tt.game, To: "alice", Board: view})
		if err != nil || got != tt.want {
			t.Errorf("Board(%+v) subject = %q, %v, want %q", tt.game, got, err, tt.want)
		}
	}
}

func TestDuration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d    time.Duration
		want string
	}{
		{52*time.Hour + 7*time.Minute, "2 days 4 hours"},
		{24 * time.Hour, "1 day"},
		{25 * time.Hour, "1 day 1 hour"},
		{5*time.Hour + 3*time.Minute, "5 hours 3 minutes"},
		{time.Hour + 59*time.Second, "1 hour"},
		{45 * time.Minute, "45 minutes"},
		{time.Minute, "1 minute"},
		{59 * time.Second, "0 minutes"},
		{-time.Hour, "0 minutes"},
	}
	for _, tt := range tests {
		if got := Duration(tt.d); got != tt.want {
			t.Errorf("Duration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// TestDurationsAndDates: times left and dates in each language's form,
// Czech's three plural forms, Japanese's units written together.
func TestDurationsAndDates(t *testing.T) {
	t.Parallel()
	const nb = "\u00a0" // Czech keeps a number with its noun
	tests := []struct {
		lang lang.Code
		d    time.Duration
		want string
	}{
		{lang.Czech, 24 * time.Hour, "1" + nb + "den"},
		{lang.Czech, 52*time.Hour + 7*time.Minute, "2" + nb + "dny 4" + nb + "hodiny"},
		{lang.Czech, 5*24*time.Hour + time.Hour, "5" + nb + "dní 1" + nb + "hodina"},
		{lang.Czech, 5*time.Hour + 21*time.Minute, "5" + nb + "hodin 21" + nb + "minut"},
		{lang.Czech, 2 * time.Minute, "2" + nb + "minuty"},
		{lang.Japanese, 52*time.Hour + 7*time.Minute, "2日4時間"},
		{lang.Japanese, 5*time.Hour + 3*time.Minute, "5時間3分"},
		{lang.Japanese, 59 * time.Second, "0分"},
	}
	for _, tt := range tests {
		if got, err := tongueOf(tt.lang).duration(tt.d); err != nil || got != tt.want {
			t.Errorf("%s: duration(%v) = %q, %v, want %q", tt.lang, tt.d, got, err, tt.want)
		}
	}
	at := time.Date(2025, 3, 7, 9, 5, 0, 0, time.FixedZone("CET", 3600))
	for l, want := range map[lang.Code]string{
		lang.English:  "2025-03-07 08:05 UTC",
		lang.Czech:    "7." + nb + "3." + nb + "2025 08:05 UTC",
		lang.Japanese: "2025年3月7日 08:05 UTC",
	} {
		if got, err := tongueOf(l).when(at); err != nil || got != want {
			t.Errorf("%s: when(%v) = %q, %v, want %q", l, at, got, err, want)
		}
	}
}

func TestReplySubject(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"games", "Re: games"},
		{"Re: Congo game 42: alice vs bob - bob to move", "Re: Congo game 42: alice vs bob - bob to move"},
		{"RE: x", "RE: x"},
		{"  help ", "Re: help"},
		{"Regards", "Re: Regards"},
	}
	for _, tt := range tests {
		if got := replySubject(tt.in); got != tt.want {
			t.Errorf("replySubject(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// everyProblem lists every Problem, for reply_problems.
var everyProblem = []Problem{
	NotUnderstood, BadHandle, HandleTaken, HandleLooksLike, RenameTooLate, TooManyMails, NoSuchPlayer, ChallengeSelf, NoSuchGame, NotYourGame,
	NotChallenged, OwnChallenge, NotActive, NotYourTurn, StaleMoveNumber, IllegalMove, Unsupported,
	NoOffer, NotYourTakeback, NoMoves, TooLate, NoSuchMove, BadConditional, YourMove, OwnGame,
	NoVacation, NotOnVacation, OnVacation, LevelForHuman, RobotTakeback, Unconfirmed, TooManyRobotGames,
	TooManyChallenges, Banned, Adjourned, NoSuchTournament, NotDirector, TooFewPlayers, TournamentNotOpen,
	TournamentNotRunning, Joined, NotAPlayer, TournamentAbort, TooManyNotes, BadPosition, PreviewOver, BadPreview,
}

// timeProblems lists the problems of time as players ask for it
// (M63-M67), for reply_problems_time.
var timeProblems = []Problem{
	BadTimeZone, RobotClaim, PausedAlready, PauseAskedAlready, NoPauses, PauseUsedUp, NotPaused, GamePaused,
	TooMuchGiven, NoClaim, ClaimOnMove, NotLate,
}

// problems lists every Problem.
var problems = append([]Problem{
	NotUnderstood, BadHandle, HandleTaken, HandleLooksLike, RenameTooLate, TooManyMails, NoSuchPlayer, ChallengeSelf, NoSuchGame, NotYourGame,
	NotChallenged, OwnChallenge, NotActive, NotYourTurn, StaleMoveNumber, IllegalMove, Unsupported,
	NoOffer, NotYourTakeback, NoMoves, TooLate, NoSuchMove, BadConditional, YourMove, OwnGame,
	NoVacation, NotOnVacation, OnVacation, TooManyNotes, BadPosition, PreviewOver, BadPreview,
}, timeProblems...)

func TestEveryProblemHasWords(t *testing.T) {
	t.Parallel()
	for _, p := range problems {
		e := Error{Line: "x", Problem: p, Handle: "zed", GameID: 42, Game: &playing, Detail: "detail"}
		got, err := tongueOf(lang.English).execute("problem", e)
		if err != nil {
			t.Errorf("problem %q: %v", p, err)
			continue
		}
		if strings.Contains(got, "could not be carried out") {
			t.Errorf("problem %q has no wording of its own: %q", p, got)
		}
	}
}

func TestPieces(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []Piece
		want string
	}{
		{nil, ""},
		{[]Piece{{"pawn", "c2"}}, "the pawn on c2"},
		{[]Piece{{"pawn", "c2"}, {"pawn", "e4"}}, "the pawns on c2 and e4"},
		{[]Piece{{"pawn", "c2"}, {"zebra", "d5"}, {"pawn", "e4"}}, "the pawns on c2 and e4 and the zebra on d5"},
		{[]Piece{{"pawn", "a1"}, {"pawn", "b1"}, {"pawn", "c1"}, {"lion", "d1"}, {"giraffe", "e1"}},
			"the pawns on a1, b1 and c1, the lion on d1 and the giraffe on e1"},
	}
	for _, tt := range tests {
		if got, err := tongueOf(lang.English).pieces(tt.in); err != nil || got != tt.want {
			t.Errorf("pieces(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTidy(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"a  \n\n\n\nb\n\n", "a\n\nb\n"},
		{"\n\na", "a\n"},
		{"x\n-- \nfooter  ", "x\n-- \nfooter\n"},
		{strings.Repeat("word ", 20), strings.Repeat("word ", 13) + "word\n" + strings.Repeat("word ", 5) + "word\n"},
		{"  " + strings.Repeat("word ", 20), "  " + strings.TrimSpace(strings.Repeat("word ", 20)) + "\n"},
		{"> " + strings.Repeat("word ", 20), "> " + strings.TrimSpace(strings.Repeat("word ", 20)) + "\n"},
		{strings.Repeat("x", 80) + " y", strings.Repeat("x", 80) + "\ny\n"},
		// A command the reader is to write stays on one line.
		{"You cannot challenge yourself. Name another player: challenge congo <handle>",
			"You cannot challenge yourself. Name another player:\nchallenge congo <handle>\n"},
		{strings.Repeat("w ", 30) + "decline congo 42 now",
			strings.TrimSpace(strings.Repeat("w ", 30)) + "\ndecline congo 42 now\n"},
	}
	for _, tt := range tests {
		if got := tidy(tt.in); got != tt.want {
			t.Errorf("tidy(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// A command in straight quotes, or in 「」, stays whole, with its
	// quotes; before 「 a Japanese line may break, so that a particle
	// stays with its word.
	type whole struct{ in, whole string }
	cases := []whole{
		{"alice が一時停止を求めています。合意すると、どちらかが「resume congo 42」を送るまで、両者の持ち時間が止まります。", "どちらかが"},
	}
	for n := range 60 { // wherever the line's end falls
		cases = append(cases,
			whole{strings.Repeat("x", n) + ` send "move congo 1 d6-c5 anyway" to play it, or write another move.`, `"move congo 1 d6-c5 anyway"`},
			whole{strings.Repeat("x", n) + ` to decline, "nodraw congo 1". Moving declines it too, as it always did.`, `"nodraw congo 1".`})
	}
	for _, tt := range cases {
		got := tidy(tt.in)
		if !slices.ContainsFunc(strings.Split(got, "\n"), func(l string) bool { return strings.Contains(l, tt.whole) }) {
			t.Errorf("tidy(%q) =\n%s\nwhich breaks %q", tt.in, got, tt.whole)
		}
	}
	// A list of games, and a stray "<" in a player's words, still wrap.
	for _, in := range []string{
		"Your games waiting for you: congo 12, congo 15, congo 18, congo 21, congo 24, congo 27, congo 30, congo 33 and more.",
		"alice says x <= 3 is " + strings.Repeat("true and ", 12) + "that is all",
		"「" + strings.Repeat("word ", 20),
	} {
		lines := strings.Split(strings.TrimSuffix(tidy(in), "\n"), "\n")
		for i, l := range lines {
			if columns(l) > width || i < len(lines)-1 && columns(l) < 40 {
				t.Errorf("tidy(%q) has the line %q of %d columns", in, l, columns(l))
			}
		}
	}
}

// TestAdminGolden renders the operator's notices to a player and the
// answer to the operator, in every language.
func TestAdminGolden(t *testing.T) {
	t.Parallel()
	g := playing
	g.Winner = "alice"
	for _, action := range []string{"ban", "unban", "adjourn", "resume", "adjudicate"} {
		for _, l := range lang.All {
			name := goldenName("admin_"+action, l)
			t.Run(name, func(t *testing.T) {
				n := AdminNotice{Lang: l, To: "bob", Action: action}
				if action != "ban" && action != "unban" {
					n.Game = g
				}
				subject, body, err := Admin(n)
				if err != nil {
					t.Fatal(err)
				}
				checkGolden(t, name, mail{subject, body}.String())
			})
		}
	}
	for _, l := range lang.All {
		subject, body, err := Reply(ReplyData{Lang: l, Subject: "ops", Sections: []Section{AdminDone{Line: "ban mallory", Done: "ban mallory"}}})
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, goldenName("reply_admin_done", l), mail{subject, body}.String())
		checkMailText(t, l, subject, body)
	}
}

func TestAdminDone(t *testing.T) {
	t.Parallel()
	_, body, err := Reply(ReplyData{Subject: "ops", Sections: []Section{AdminDone{Line: "ban mallory", Done: "ban mallory"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"> ban mallory\n", "Done: ban mallory. The players concerned have been told."} {
		if !strings.Contains(body, want) {
			t.Errorf("Reply(AdminDone) lacks %q:\n%s", want, body)
		}
	}
}

// TestRulesSummary checks that the rules mail names what a new player
// needs (M25) and writes squares and moves in the help's own words.
func TestRulesSummary(t *testing.T) {
	t.Parallel()
	_, rules, err := Reply(ReplyData{Subject: "rules", Sections: []Section{RulesSummary{}}})
	if err != nil {
		t.Fatal(err)
	}
	_, help, err := Reply(ReplyData{Subject: "help", Sections: []Section{Help{}}})
	if err != nil {
		t.Fatal(err)
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, shared := range []string{
		"Files a to g run from white's left, ranks 1 to 7 from white's side.",
		"Moves are written as the square the piece starts on and the squares it lands on, joined by - for a move and x for a capture: b2-b3, c3xd4, or b1xd3xf5 for a monkey that captures twice",
	} {
		if !strings.Contains(flat(rules), shared) || !strings.Contains(flat(help), shared) {
			t.Errorf("the rules and the help do not both say %q", shared)
		}
	}
	for _, want := range []string{
		"7 by 7", "river", "castle", "c1 to e3", "c5 to e7",
		"Lion (L)", "Zebra (Z)", "Elephant (E)", "Giraffe (G)", "Monkey (M)", "Crocodile (C)", "Pawn (P)", "Superpawn (S)",
		"fly across", "jump again", "drowns", "never drowns", "you win", "no legal move, you lose", "draw",
	} {
		if !strings.Contains(flat(rules), want) {
			t.Errorf("the rules mail lacks %q", want)
		}
	}
	if n := strings.Count(rules, "\n"); n < 40 || n > 80 {
		t.Errorf("the rules mail has %d lines, want about 40 to 70 and the footer", n)
	}
	if !strings.Contains(help, "\nrules\n") {
		t.Errorf("the help does not name the rules command")
	}
}

// TestDrowningWarning checks that the player to move, and only they, is
// told which of their pieces drown unless they leave the river (M25).
func TestDrowningWarning(t *testing.T) {
	t.Parallel()
	two := []Piece{{"pawn", "c4"}, {"pawn", "f4"}}
	one := []Piece{{"zebra", "b4"}}
	won := playing
	won.State, won.ToMove, won.Winner, won.Reason = Won, "", "alice", rules.LionCaptured
	tests := []struct {
		name string
		d    BoardData
		want string // "" for no warning
	}{
		{"two", BoardData{Game: playing, To: "bob", Board: view, Drowning: two},
			"Careful: your pawns on c4 and f4 are in the river. Those that do not leave the river on this move drown at the end of it."},
		{"one", BoardData{Game: playing, To: "bob", Board: view, Drowning: one},
			"Careful: your zebra on b4 is in the river. Unless it leaves the river on this move, it drowns at the end of it."},
		{"reminder", BoardData{Game: playing, To: "bob", Board: view, Events: []Happening{{Event: Reminder}}, Drowning: one},
			"Careful: your zebra on b4 is in the river."},
		{"none", BoardData{Game: playing, To: "bob", Board: view}, ""},
		{"not to move", BoardData{Game: playing, To: "alice", Board: view, Drowning: one}, ""},
		{"over", BoardData{Game: won, To: "bob", Board: view, Drowning: one}, ""},
	}
	for _, tt := range tests {
		_, body, err := Board(tt.d)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		flat := strings.Join(strings.Fields(body), " ")
		if tt.want == "" && strings.Contains(body, "Careful") {
			t.Errorf("%s: Board() warns of drowning, want no warning:\n%s", tt.name, body)
		}
		if tt.want != "" && !strings.Contains(flat, tt.want) {
			t.Errorf("%s: Board() lacks %q:\n%s", tt.name, tt.want, body)
		}
	}
}
