package play_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// The tests of time as players ask for it (M63-M67), by mail, with the
// clock moved by the test world's clock. The world begins on Saturday
// 2025-03-01 12:00 UTC (congotest.T0).

// at is a time of the tests, written "2006-01-02 15:04", UTC.
func at(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// tickAt sets the world's clock to when and runs the clock, returning
// the mails it sent.
func tickAt(t *testing.T, w *servertest.World, when string) []servertest.Received {
	t.Helper()
	w.Clock.Set(at(t, when))
	w.Tick()
	return w.Deliver()
}

// quiet fails the test when the clock sends anything from one time to
// another, ticking every six hours and at the end.
func quiet(t *testing.T, w *servertest.World, from, to string) {
	t.Helper()
	end := at(t, to)
	for tm := at(t, from); !tm.After(end); tm = tm.Add(6 * time.Hour) {
		w.Clock.Set(tm)
		w.Tick()
		if got := w.Deliver(); len(got) != 0 {
			t.Fatalf("the clock sent %d mails at %v (%q), want none until %s", len(got), tm, got[0].Subject, to)
		}
	}
}

// show prints a mail, for reading it as a player does (go test -v).
func show(t *testing.T, m servertest.Received) {
	t.Helper()
	if testing.Verbose() {
		t.Logf("To: %s\nSubject: %s\n\n%s", m.To, m.Subject, m.Text)
	}
}

// TestPauseOverAWeekend: bob, whose clock stands still on weekends in
// Prague, asks for a pause on a Friday, alice agrees by a reply; both
// clocks stand still over the weekend and beyond, nothing is played and
// no reminder comes, until alice resumes the game on Monday: bob's clock
// then runs on with the time he had (M63, M64).
func TestPauseOverAWeekend(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("bob", "timezone Europe/Prague")
	w.SendProven("bob", "weekends pause")
	w.Deliver()

	w.Clock.Set(at(t, "2025-03-05 12:00")) // a Wednesday
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "bob: 3 days left (weekends paused, Europe/Prague)")
	// bob's 3 days: 59 hours to Saturday 00:00 in Prague, the rest from
	// Monday 00:00 there: Monday 12:00 UTC.
	if next := w.Tick(); !next.Equal(at(t, "2025-03-07 00:00")) {
		t.Errorf("Tick() next = %v, want the reminder at half time, Friday 00:00", next)
	}
	servertest.WantText(t, servertest.Only(t, tickAt(t, w, "2025-03-07 00:00"), "bob"), "Reminder: it is your move in game 1")

	w.Clock.Set(at(t, "2025-03-07 10:00"))
	w.SendProven("bob", "pause congo 1")
	mails := w.Deliver()
	ask := servertest.Only(t, mails, "alice")
	show(t, ask)
	servertest.WantWords(t, ask, `bob asks for a pause: both clocks would stand still until either of you sends "resume congo 1".`,
		`To agree, reply "pause"`, "Pause left in this game: 30 days.")
	servertest.WantWords(t, servertest.Only(t, mails, "bob"), `You asked alice for a pause.`)

	w.Clock.Set(at(t, "2025-03-07 11:00"))
	w.Reply(ask, "pause\n\nEnjoy the weekend!")
	mails = w.Deliver()
	agreed := servertest.Only(t, mails, "bob")
	show(t, agreed)
	servertest.WantWords(t, agreed, `alice agreed: game 1 is paused, and both clocks stand still until either of you sends "resume congo 1".`,
		"Enjoy the weekend!", "Paused by agreement since 2025-03-07 11:00 UTC", "Pause left: 30 days.",
		"bob: 1 day 1 hour left (weekends paused, Europe/Prague)")
	servertest.WantWords(t, servertest.Only(t, mails, "alice"), "You agreed: game 1 is paused")
	if g := w.Game(1); !g.IsPaused() || g.PauseAsked != 0 {
		t.Errorf("game after the agreement: paused %v, asked %d", g.Paused, g.PauseAsked)
	}

	// Nothing is played meanwhile, and the clock is quiet.
	w.Clock.Set(at(t, "2025-03-08 09:00"))
	w.SendProven("bob", "move congo 1 b6-b5")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "Game 1 has been paused by agreement since 2025-03-07 11:00 UTC: nothing is played")
	w.SendProven("bob", "games")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"),
		"game 1: alice vs bob - bob to move (move 1, paused by agreement since 2025-03-07 11:00 UTC, 29 days 2 hours of pause left)")
	w.SendProven("alice", "pause congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "Game 1 has been paused by agreement already")
	quiet(t, w, "2025-03-07 12:00", "2025-03-10 08:00")

	// On Monday alice resumes it: bob's 25 hours run from then.
	w.Clock.Set(at(t, "2025-03-10 09:00"))
	w.SendProven("alice", "resume congo 1")
	mails = w.Deliver()
	resumed := servertest.Only(t, mails, "bob")
	show(t, resumed)
	servertest.WantWords(t, resumed, "alice resumed game 1: the clocks run again.", "Pause left in this game: 27 days 2 hours.",
		"bob: 1 day 1 hour left (weekends paused, Europe/Prague)")
	servertest.WantNoWords(t, resumed, "Paused by agreement")
	w.SendProven("alice", "resume congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "Game 1 is not paused: its clocks run.")

	servertest.WantText(t, servertest.Only(t, tickAt(t, w, "2025-03-10 10:00"), "bob"), "LAST REMINDER")
	if got := tickAt(t, w, "2025-03-11 09:59"); len(got) != 0 {
		t.Fatalf("a minute before bob's time runs out: %d mails", len(got))
	}
	end := tickAt(t, w, "2025-03-11 10:00")
	servertest.WantText(t, servertest.Only(t, end, "alice"), "You win: bob ran out of time.")
	if g := w.Game(1); g.Status != db.Finished || g.Reason != rules.OutOfTime || g.PausedFor != 70*time.Hour {
		t.Errorf("game after bob's time ran out = %+v, want lost on time after 70 hours of pause", g)
	}
}

// TestPauseUsedUp: a game may be paused for 30 days in all; then it resumes
// by itself and both are told, and it cannot be paused again (M63). A
// request lapses when the opponent moves.
func TestPauseUsedUp(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("bob", "pause congo 1")
	w.Deliver()
	w.SendProven("bob", "pause congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "You have asked for a pause in game 1 already")
	w.SendProven("alice", "move congo 1 b2-b3") // the request lapses
	w.Deliver()
	w.SendProven("alice", "pause congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "alice asks for a pause")
	w.SendProven("bob", "pause congo 1")
	w.Deliver()

	w.Clock.Advance(30*24*time.Hour - time.Minute)
	w.Tick()
	if got := w.Deliver(); len(got) != 0 {
		t.Fatalf("a minute before the 30 days of pause end: %d mails", len(got))
	}
	w.Clock.Advance(time.Minute)
	w.Tick()
	mails := w.Deliver()
	for _, who := range []string{"alice", "bob"} {
		m := servertest.Only(t, mails, who)
		servertest.WantWords(t, m, "Game 1 has been paused for 30 days, the most a game may be paused in all: it is resumed, and the clocks run again.",
			"bob: 3 days left")
	}
	show(t, servertest.Only(t, mails, "bob"))
	w.SendProven("alice", "pause congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "Game 1 has been paused for 30 days already")
}

// TestPauseWithTheRobot: the robot agrees to a pause at once.
func TestPauseWithTheRobot(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{Robot: config.DefaultRobot}})
	if err := w.Server.EnsureRobot(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Register("alice")
	w.SendProven("alice", "challenge congo robot")
	w.Deliver()
	w.SendProven("alice", "pause congo 1")
	m := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantWords(t, m, "You asked robot for a pause.", "robot agreed: game 1 is paused")
	if g := w.Game(1); !g.IsPaused() {
		t.Errorf("game against the robot not paused: %+v", g)
	}
}

// TestWeekendInTokyo: alice's clock stands still from Saturday 00:00 to
// Monday 00:00 in Tokyo (Friday 15:00 to Sunday 15:00 UTC); her
// reminders and her deadline move by those 48 hours, as her clock shows
// in every mail (M64).
func TestWeekendInTokyo(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("alice", "timezone Asia/Tokyo")
	answer := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantWords(t, answer, "Done. Your time zone is Asia/Tokyo; it is 2025-03-01 21:00 there now.", "Your clock runs on weekends too.")
	w.SendProven("alice", "weekends pause")
	answer = servertest.Only(t, w.Deliver(), "alice")
	show(t, answer)
	servertest.WantWords(t, answer, "Your clock stands still on weekends, from Saturday 00:00 to Monday 00:00 in Asia/Tokyo, from the weekend of 2025-03-08 on")

	w.Clock.Set(at(t, "2025-03-06 15:00")) // Friday 00:00 in Tokyo
	w.StartGame("alice", "bob")
	w.SendProven("alice", "board congo 1")
	board := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantText(t, board, "alice: 3 days left (weekends paused, Asia/Tokyo)", "bob: 3 days left\n")
	if html := servertest.HTMLOf(t, board.Raw); !strings.Contains(html, "3 days left (weekends paused, Asia/Tokyo)") {
		t.Errorf("the HTML part of the board does not say alice pauses weekends:\n%s", html)
	}

	// 24 hours on Friday, the weekend, then 12 hours to half time.
	quiet(t, w, "2025-03-06 21:00", "2025-03-10 02:00")
	servertest.WantWords(t, servertest.Only(t, tickAt(t, w, "2025-03-10 03:00"), "alice"),
		"Reminder: it is your move in game 1, and you have 1 day 12 hours left. Unless you move by 2025-03-11 15:00 UTC")
	servertest.WantText(t, servertest.Only(t, tickAt(t, w, "2025-03-10 15:00"), "alice"), "LAST REMINDER")
	w.SendProven("bob", "games alice")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "(move 1, 1 day left; weekends paused, Asia/Tokyo)")
	if got := tickAt(t, w, "2025-03-11 14:59"); len(got) != 0 {
		t.Fatalf("before alice's time runs out: %d mails", len(got))
	}
	servertest.WantText(t, servertest.Only(t, tickAt(t, w, "2025-03-11 15:00"), "bob"), "You win: alice ran out of time.")
}

// TestWeekendInPragueAcrossTheChangeOfClocks: the weekend of Europe's
// change to summer time lasts 47 hours in Prague, from Friday 23:00 to
// Sunday 22:00 UTC: bob's time runs out an hour sooner than over a
// weekend of 48 (M64).
func TestWeekendInPragueAcrossTheChangeOfClocks(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("bob", "timezone europe/prague") // written in any case
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "Your time zone is Europe/Prague")
	w.SendProven("bob", "weekends pause")
	w.Deliver()

	w.Clock.Set(at(t, "2025-03-27 11:00")) // a Thursday
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3")
	w.Deliver()
	// 36 hours to the weekend, 36 from Monday 00:00 CEST (Sunday 22:00
	// UTC): Tuesday 10:00 UTC.
	quiet(t, w, "2025-03-28 12:00", "2025-03-30 21:00")
	servertest.WantWords(t, servertest.Only(t, tickAt(t, w, "2025-03-30 22:00"), "bob"), "Reminder: it is your move in game 1, and you have 1 day 12 hours left")
	tickAt(t, w, "2025-03-31 10:00") // the last reminder
	if got := tickAt(t, w, "2025-04-01 09:59"); len(got) != 0 {
		t.Fatalf("before bob's time runs out: %d mails", len(got))
	}
	end := tickAt(t, w, "2025-04-01 10:00")
	servertest.WantText(t, servertest.Only(t, end, "alice"), "You win: bob ran out of time.")
}

// TestReminderNotOnASaturday: bob's last reminder would fall on a
// Saturday; his weekend paused, it comes when his clock runs again, and
// no mail comes on the weekend (M64). A weekend that has begun when he
// asks to pause weekends runs.
func TestReminderNotOnASaturday(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("bob", "weekends pause") // on a Saturday, in UTC: from the next weekend on
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "from the weekend of 2025-03-08 on")

	w.Clock.Set(at(t, "2025-03-07 12:00")) // a Friday
	w.SendProven("alice", "challenge congo bob days=2")
	w.Deliver()
	w.SendProven("bob", "accept congo 1")
	w.Deliver()
	w.SendProven("alice", "move congo 1 b2-b3")
	w.Deliver()
	// Without the pause, the last reminder (a day left) would come on
	// Saturday 12:00; bob's clock runs 12 hours on Friday, and 12 more
	// from Monday 00:00.
	quiet(t, w, "2025-03-07 18:00", "2025-03-10 11:00")
	r := servertest.Only(t, tickAt(t, w, "2025-03-10 12:00"), "bob")
	show(t, r)
	servertest.WantWords(t, r, "LAST REMINDER: it is your move in game 1, and you have 1 day left. Unless you move by 2025-03-11 12:00 UTC",
		"bob: 1 day left (weekends paused, UTC)")

	// bob plays weekends again from now: his clock runs on Saturday.
	w.SendProven("bob", "weekends play")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "Your clock runs on weekends too.")
	w.SendProven("bob", "move congo 1 b6-b5")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "bob: 2 days left\n")
}

// TestTimezone: timezone alone says the player's; an unknown name is
// refused with examples, and changes nothing.
func TestTimezone(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice")
	w.SendProven("alice", "timezone")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "Your time zone is UTC; it is 2025-03-01 12:00 there now.")
	w.SendProven("alice", "timezone Mars/Olympus_Mons")
	m := servertest.Only(t, w.Deliver(), "alice")
	show(t, m)
	servertest.WantWords(t, m, `"Mars/Olympus_Mons" is not a time zone this server knows.`, "timezone Europe/Prague")
	if p := w.Player("alice"); p.TimeZone != "" {
		t.Errorf("time zone after an unknown one = %q, want none", p.TimeZone)
	}
	w.SendProven("alice", "timezone America/New_York")
	w.Deliver()
	w.SendProven("alice", "timezone")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "Your time zone is America/New_York; it is 2025-03-01 07:00 there now.")
	w.SendProven("alice", "timezone UTC")
	w.Deliver()
	if p := w.Player("alice"); p.TimeZone != "" {
		t.Errorf("time zone after timezone UTC = %q, want none (UTC)", p.TimeZone)
	}
}

// TestGiveThenLossOnTimeLater: alice gives bob 2 days for his move, by a
// command and by a reply; both are told, and bob loses on time 2 days
// later than he would have. A give that would take the game's given
// time past 30 days is refused, and nothing is added (M65).
func TestGiveThenLossOnTimeLater(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3")
	w.Deliver()
	began := w.Clock.Now()

	w.Clock.Advance(12 * time.Hour)
	w.SendProven("alice", "give congo 1 2d")
	mails := w.Deliver()
	given := servertest.Only(t, mails, "bob")
	show(t, given)
	servertest.WantWords(t, given, "alice gave you 2 days more for your next move.", "bob: 4 days 12 hours left")
	servertest.WantWords(t, servertest.Only(t, mails, "alice"), "You gave bob 2 days more for their next move.")

	w.SendProven("alice", "give congo 1 29d")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"),
		"Not given: the players of a game may give each other 30 days in all, and only 28 days more may be given in game 1.")
	if g := w.Game(1); g.Given != 48*time.Hour || g.BlackLeft != 4*24*time.Hour+12*time.Hour {
		t.Errorf("after a refused give: given %v, bob's time %v", g.Given, g.BlackLeft)
	}

	// Three days after his turn began, bob would have lost on time; he
	// has two more.
	w.Clock.Set(began.Add(3 * 24 * time.Hour))
	w.Tick()
	for _, m := range w.Deliver() {
		servertest.WantNoText(t, m, "ran out of time")
	}
	w.Clock.Set(began.Add(5*24*time.Hour - time.Minute))
	w.Tick()
	for _, m := range w.Deliver() {
		servertest.WantNoText(t, m, "ran out of time")
	}
	w.Clock.Set(began.Add(5 * 24 * time.Hour))
	w.Tick()
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "You win: bob ran out of time.")
}

// TestGiveInAReply: "give 12h" in a reply to a mail about the game gives
// the opponent, to move next, 12 hours for that move (M65).
func TestGiveInAReply(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3")
	m := servertest.Only(t, w.Deliver(), "bob")
	w.Reply(m, "b6-b5\ngive 12h\nTake your time next move.")
	mails := w.Deliver()
	servertest.WantWords(t, servertest.Only(t, mails, "alice"), "bob: b6-b5", "bob gave you 12 hours more for your next move.",
		"alice: 3 days 12 hours left", "Take your time next move.")
	servertest.WantWords(t, servertest.Only(t, mails, "bob"), "You gave alice 12 hours more for their next move.")
}

// TestTimeoutClaim: in a game agreed with timeout=claim, a player whose
// time runs out does not lose at once: both are told, the opponent may
// claim the win, the late player may still move, and then the next
// clock starts as usual; a claim before the time is up says how much is
// left, one by the player to move is refused (M66).
func TestTimeoutClaim(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("alice", "challenge congo bob timeout=claim")
	challenge := servertest.Only(t, w.Deliver(), "bob")
	servertest.WantWords(t, challenge, "Time control: days=3, rated.", "timeout=claim: a player who runs out of time loses when the opponent claims the win")
	w.SendProven("bob", "accept congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "Time left (days=3, timeout=claim):")
	began := w.Clock.Now()

	w.Clock.Advance(24 * time.Hour)
	w.SendProven("bob", "claim congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "alice has not run out of time in game 1: 2 days left.")

	w.Clock.Set(began.Add(3 * 24 * time.Hour))
	w.Tick()
	mails := w.Deliver()
	toBob, toAlice := servertest.Only(t, mails, "bob"), servertest.Only(t, mails, "alice")
	show(t, toBob)
	show(t, toAlice)
	servertest.WantWords(t, toBob, `alice's time has run out in game 1. To win on time, reply "claim" (or send "claim congo 1").`, "alice: out of time")
	servertest.WantWords(t, toAlice, "Your time has run out in game 1.", `bob wins on time by sending "claim congo 1"`, "Until then you may still move")
	if g := w.Game(1); g.Status != db.Active {
		t.Fatalf("game after alice's time ran out = %v, want it going on until a claim", g.Status)
	}
	w.Clock.Advance(24 * time.Hour)
	w.Tick()
	if got := w.Deliver(); len(got) != 0 {
		t.Fatalf("the clock told again: %d mails", len(got))
	}

	// bob gives her a day instead of claiming: from now, as her time has
	// run out, and the claim must wait for it.
	w.SendProven("bob", "give congo 1 1d")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "bob gave you 1 day more for your next move.", "alice: 1 day left")
	w.SendProven("bob", "claim congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "alice has not run out of time in game 1: 1 day left.")

	// alice moves late, before bob claims: bob's clock starts, and hers
	// will start with the full 3 days at her next turn.
	w.SendProven("alice", "move congo 1 b2-b3")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "alice: 3 days left", "bob: 3 days left")
	w.SendProven("bob", "claim congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "It is your move in game 1: a claim wins only when your opponent, to move, has run out of time.")

	// bob runs out; alice claims, in a reply to the notice.
	w.Clock.Advance(3 * 24 * time.Hour)
	w.Tick()
	notice := servertest.Only(t, w.Deliver(), "alice")
	w.Reply(notice, "claim")
	mails = w.Deliver()
	win := servertest.Only(t, mails, "alice")
	show(t, win)
	servertest.WantText(t, win, "You win: bob ran out of time.")
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "alice wins: you ran out of time.")
	if g := w.Game(1); g.Status != db.Finished || g.Reason != rules.OutOfTime || g.Result != db.WhiteWins {
		t.Errorf("game after the claim = %+v", g)
	}
}

// TestClaimRefused: claim in a timeout=auto game is refused; the robot
// takes no timeout=claim.
func TestClaimRefused(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{Robot: config.DefaultRobot}})
	if err := w.Server.EnsureRobot(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("bob", "claim congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "Game 1 was not agreed with timeout=claim")
	w.SendProven("alice", "challenge congo robot timeout=claim")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "robot would claim a win on time at once")
	w.SendProven("alice", "seek congo timeout=claim")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), `"timeout=claim" is for a challenge`)
}

// TestTimeInCzechAndJapanese: each reads the mails of time in their
// language: alice in Czech, bob in Japanese, whose clock stands still on
// weekends in Tokyo (M40, M63-M65).
func TestTimeInCzechAndJapanese(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("alice", "language cs")
	w.SendProven("bob", "language ja")
	w.Deliver()
	w.SendProven("bob", "timezone Asia/Tokyo\nweekends pause")
	answer := servertest.Only(t, w.Deliver(), "bob")
	show(t, answer)
	servertest.WantWords(t, answer, "設定しました。あなたのタイムゾーンは Asia/Tokyo で", "「（週末は停止、Asia/Tokyo）」")

	w.SendProven("alice", "challenge congo bob")
	w.Deliver()
	w.SendProven("bob", "accept congo 1")
	w.Deliver()
	w.SendProven("alice", "move congo 1 b2-b3\npause congo 1")
	mails := w.Deliver()
	ja := servertest.Only(t, mails, "bob")
	show(t, ja)
	servertest.WantWords(t, ja, "alice が一時停止を求めています。", "bob: 3日（週末は停止、Asia/Tokyo）")
	cs := servertest.Only(t, mails, "alice")
	show(t, cs)
	servertest.WantWords(t, cs, "Žádáte o pauzu. Až bob také pošle", "bob: 3 dny (o víkendech stojí, Asia/Tokyo)")

	w.SendProven("alice", "give congo 1 1d")
	mails = w.Deliver()
	servertest.WantWords(t, servertest.Only(t, mails, "bob"), "alice があなたの次の手の持ち時間に1日を追加しました。")
	servertest.WantWords(t, servertest.Only(t, mails, "alice"), "bob od vás dostává na příští tah čas navíc: 1 den.")
	w.SendProven("bob", "pause")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "pause には対局の番号が必要です")
	w.SendProven("bob", "pause congo 1")
	mails = w.Deliver()
	servertest.WantWords(t, servertest.Only(t, mails, "alice"), "bob souhlasí: partie 1 je pozastavena", "Partie je po dohodě pozastavena od 1. 3. 2025 12:00 UTC")
	servertest.WantWords(t, servertest.Only(t, mails, "bob"), "あなたが合意しました。対局 1 は一時停止となり")
}
