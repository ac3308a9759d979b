package lobby_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
	"github.com/congobymail/congo/web"
)

// endgame is a position from a book: black to move, move 12; white's
// lion faces black's across an open d-file but for its pawn on d2.
const endgame = "3l3/2p4/7/7/7/3P3/3L3 b 12"

// TestChallengeFromPosition plays a game from a position by mail (M72):
// the challenge shows the position; the game begins there, black to move
// as the line says, numbered from move 12, unrated; its record carries
// [SetUp "1"] and [Position], its board#N and its pages count from there.
func TestChallengeFromPosition(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{PublicURL: "https://congo.example.org/"}})
	w.Register("alice", "bob")
	w.SendProven("alice", "challenge congo bob position="+endgame+" days=2")
	mails := w.Deliver()
	start, _ := rules.ParsePosition(endgame)
	challenge := servertest.Only(t, mails, "bob")
	servertest.WantWords(t, challenge, "alice challenges you to a game of Congo: game 1.", "unrated",
		"The game begins from this position, not from the usual start")
	servertest.WantText(t, challenge, start.Diagram(rules.Black), "Position: "+endgame, "accept congo 1")
	servertest.WantText(t, servertest.Only(t, mails, "alice"), start.Diagram(rules.White), "Position: "+endgame)
	g := w.Game(1)
	if g.Start != endgame || g.Position != endgame || g.Rated {
		t.Errorf("game 1: start %q, position %q, rated %v; want from %q, unrated", g.Start, g.Position, g.Rated, endgame)
	}
	w.SendProven("bob", "accept congo 1")
	mails = w.Deliver()
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "Move 12: bob (black) to move.", `"move congo 1 <move> #12"`)
	// The move numbers are the line's (M1).
	w.SendProven("bob", "move congo 1 c6-c5 #1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "is #12")
	w.SendProven("bob", "move congo 1 c6-c5 #12")
	w.SendProven("alice", "move congo 1 d2-e3 #13 anyway")
	w.Deliver()

	w.SendProven("alice", "history congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), `[SetUp "1"]`, `[Position "`+endgame+`"]`, "12... c6-c5 13. d2-e3 *")
	// board #N counts R21's moves (M15): #12 is after black's 12th
	// move, here the game's first; #0 the position it began from; #11
	// was never on its board, which began with black's 12th.
	w.SendProven("alice", "board congo 1#0")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "Position: "+endgame)
	w.SendProven("alice", "board congo 1#12")
	after12 := movesOf(w, 1)[0].Position
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "Position: "+after12)
	w.SendProven("alice", "board congo 1#11")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "no move #11")

	// The pages count from the position too.
	h, err := web.New(web.Config{DB: w.DB, PublicURL: "https://congo.example.org/", Site: servertest.ServerAddress, Now: w.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	page := get(t, h, "/games/1?ply=0")
	for _, want := range []string{`id="position">` + endgame + "<", "Begun from a position", "The position the game began from",
		`<span class="n">12.</span><span>…</span><a href="/games/1?ply=1">c6-c5</a>`, `<span class="n">13.</span><a href="/games/1?ply=2">d2-e3</a>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the game's page at ply 0 lacks %q:\n%s", want, page)
		}
	}
	if pgn := get(t, h, "/games/1.pgn"); !strings.Contains(pgn, `[Position "`+endgame+`"]`) || !strings.Contains(pgn, "12... c6-c5 13. d2-e3") {
		t.Errorf("the record on the web:\n%s", pgn)
	}
	if feed := get(t, h, "/players/bob.atom"); !strings.Contains(feed, "13. d2-e3") {
		t.Errorf("bob's feed does not number from the position:\n%s", feed)
	}
	// The end: unrated, its ratings unchanged.
	w.SendProven("bob", "resign congo 1")
	for _, m := range w.Deliver() {
		servertest.WantNoText(t, m, "Ratings now")
	}
	if p := w.Player("alice"); p.RatedGames != 0 {
		t.Errorf("alice has %d rated games after a game from a position, want 0", p.RatedGames)
	}
}

// movesOf are the stored moves of a game.
func movesOf(w *servertest.World, id int64) []db.Move {
	var moves []db.Move
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		moves, err = tx.Moves(ctx, id)
		return err
	})
	return moves
}

// get answers a GET of target by h, which must be 200.
func get(t *testing.T, h http.Handler, target string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s = %d", target, rec.Code)
	}
	return rec.Body.String()
}

// TestChallengeFromPositionRefused: no game begins from a position the
// rules refuse, and the answer says why (M72).
func TestChallengeFromPositionRefused(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	for _, tt := range []struct{ position, want string }{
		{"l6/7/7/7/7/7/3L3 w 1", "the lion on a7 stands outside its castle"},
		{"3l3/7/7/7/7/7/P2L3 w 1", ""},
		{"P2l3/7/7/7/7/7/3L3 w 1", "the pawn on a7 stands on its last rank"},
		{"3l3/7/7/7/7/7/7 w 1", "White has no lion in its castle"},
		{"3l3/7/7/7/7/GG5/3L3 w 1", "White has more pieces of one kind than it starts with: giraffe 2, at most 1"},
		{"3l3/7/7/Z5P/7/7/3L3 b 5", "white pieces other than the crocodile stand in the river on a4, g4"},
		{"2l4/7/7/7/7/7/4L2 w 1", "only the two lions are left"},
		{"3l3/7/7/7/7/7/3L3 x 1", "is not a position: write it as R21 does"},
	} {
		w.SendProven("alice", "challenge congo bob position="+tt.position)
		mails := w.Deliver()
		if tt.want == "" { // a legal one, for the control
			servertest.WantText(t, servertest.Only(t, mails, "bob"), "Position: "+tt.position)
			continue
		}
		if len(mails) != 1 {
			t.Errorf("position=%s: %d mails, want only the answer", tt.position, len(mails))
		}
		servertest.WantWords(t, servertest.Only(t, mails, "alice"), tt.want)
	}
	if n := w.Games(); n != 1 {
		t.Errorf("%d games, want the one from the legal position", n)
	}
}

// TestChallengeFromPositionCzech: the challenge from a position in
// Czech.
func TestChallengeFromPositionCzech(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("jan", "eva")
	w.SendProven("eva", "language cs")
	w.Deliver()
	w.SendProven("jan", "challenge congo eva black position=3l3/2p4/7/7/7/3P3/3L3 w 30")
	m := servertest.Only(t, w.Deliver(), "eva")
	servertest.WantWords(t, m, "jan vás vyzývá k partii Congo: partie 1.", "Partie nezačíná z obvyklé výchozí pozice, ale z této")
	servertest.WantText(t, m, "Position: 3l3/2p4/7/7/7/3P3/3L3 w 30")
	w.SendProven("jan", "challenge congo eva position=l6/7/7/7/7/7/3L3 w 1")
	w.Deliver()
	w.SendProven("eva", "challenge congo jan position=l6/7/7/7/7/7/3L3 w 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "eva"), "Z této pozice nemůže žádná partie začít: lev na a7 stojí mimo svůj hrad.")
}

// TestRobotFromPosition: the robot accepts a game from a position, and
// plays from it (M72); its analysis starts from it too.
func TestRobotFromPosition(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{Robot: config.DefaultRobot, AnalysisNodes: 2000}})
	if err := w.Server.EnsureRobot(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Register("alice")
	// White's lion can take black's on the open d-file: the robot,
	// white, to move, does.
	const pos = "3l3/2p4/7/7/7/2P4/3L3 w 20"
	w.SendProven("alice", "challenge congo robot black level=1 position="+pos)
	w.DeliverChecked()
	if !servertest.RobotStep(t, w.Server) {
		t.Fatal("the robot did not play first, as the position's white")
	}
	m := servertest.Only(t, w.DeliverChecked(), "alice")
	servertest.WantText(t, m, "robot: d1xd7", "robot wins")
	g := w.Game(1)
	if g.Start != pos || g.Status != db.Finished || g.Rated {
		t.Errorf("game 1: start %q, %v, rated %v", g.Start, g.Status, g.Rated)
	}
	w.SendProven("alice", "analyze congo 1")
	w.DeliverChecked()
	if _, err := w.Server.Analyses().Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	a := servertest.Only(t, w.DeliverChecked(), "alice")
	servertest.WantText(t, a, `[SetUp "1"]`, `[Position "`+pos+`"]`, "20. d1xd7 1-0")
	servertest.WantNoText(t, a, " 1. d1xd7")
}
