package web

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
)

var update = flag.Bool("update", false, "rewrite the golden files of the pages in testdata/")

// checkGolden compares a page with testdata/name.golden.
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
		t.Fatalf("%v (run go test ./web -update to make it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (-want +got):\n%s", name, path, lineDiff(string(want), got))
	}
}

// lineDiff shows the lines of want and got from the first that differs.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		if i >= len(w) || i >= len(g) || w[i] != g[i] {
			var b strings.Builder
			for j := i; j < i+6; j++ {
				if j < len(w) {
					b.WriteString("-" + w[j] + "\n")
				}
				if j < len(g) {
					b.WriteString("+" + g[j] + "\n")
				}
			}
			return b.String()
		}
	}
	return ""
}

// TestPagesGolden renders the pages of the world and compares them with
// their golden files: read the diffs of -update.
func TestPagesGolden(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	for _, tt := range []struct{ name, target string }{
		{"home", "/"},
		{"ratings", "/ratings"},
		{"game_won", "/games/1"},
		{"game_playing", "/games/2"},
		{"game_step", "/games/1?ply=1"},
		{"game_aborted", "/games/6"},
		{"player", "/players/alice"},
		{"feed", "/players/alice.atom"},
		{"tournament_running", "/tournaments/1"},
		{"tournament_open", "/tournaments/2"},
		{"not_found", "/games/3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(h, tt.target)
			checkGolden(t, tt.name, rec.Body.String())
		})
	}
}

// TestGamePage checks what a game's page says (M44, M45): the players
// with their ratings, the result, the moves as links to their positions,
// the position's R21 line, and the board's pieces.
func TestGamePage(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	page := mustGet(t, h, "/games/1")
	for _, want := range []string{
		"<h1>Game 1: alice vs bob</h1>",
		`href="/players/alice">alice</a> (1662)`,
		"alice won: bob&#39;s lion was captured.",
		"<strong>1-0</strong>",
		`<a href="/games/1?ply=1">d2-e3</a>`,
		`<a href="/games/1?ply=2">d6-c5</a>`,
		`<a href="/games/1?ply=3" aria-current="step">d1xd7</a>`,
		`<span id="position">gmeLecz/ppp1ppp/2p4/7/4P2/PPP1PPP/GME1ECZ b 2</span>`,
		`<a href="/games/1.pgn" download>`,
		`data-square="d7" data-piece="L"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("GET /games/1 lacks %q", want)
		}
	}
	if strings.Contains(page, `data-piece="l"`) {
		t.Errorf("GET /games/1 shows black's lion, which was taken")
	}
	// Stepping: the start, with nothing marked and no step back.
	start := mustGet(t, h, "/games/1?ply=0")
	if !strings.Contains(start, `<span id="position">gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1</span>`) ||
		strings.Contains(start, `class="last"`) || strings.Contains(start, `data-step="prev"`) ||
		!strings.Contains(start, `<a href="/games/1?ply=1" data-step="next" rel="next"`) {
		t.Errorf("GET /games/1?ply=0 is not the start, with a step on and none back")
	}
	if !strings.Contains(start, `<meta name="robots" content="noindex">`) {
		t.Errorf("GET /games/1?ply=0 may be indexed by search engines")
	}
	// A game being played: whose move, the clocks.
	page = mustGet(t, h, "/games/2")
	for _, want := range []string{"Move 2: dave (black) to move.", "3 days left", "2 days 2 hours left", "carol</a> (1629)"} {
		if !strings.Contains(page, want) {
			t.Errorf("GET /games/2 lacks %q", want)
		}
	}
	// A tournament's game names it.
	if page := mustGet(t, h, "/games/8"); !strings.Contains(page, `<a href="/tournaments/1">Spring Cup</a>, round 2`) ||
		!strings.Contains(page, "Drawn by agreement.") {
		t.Errorf("GET /games/8 does not name its tournament and round, or its draw")
	}
}

// TestRecord checks /games/<id>.pgn: the history record (game.Record),
// as text, without the messages sent with the moves.
func TestRecord(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	ctx := context.Background()
	for _, id := range []int64{1, 2, 5, 7, 9} {
		var want string
		err := w.db.ReadTx(ctx, func(tx *db.Tx) error {
			st, err := game.Load(ctx, tx, id, now)
			if err != nil {
				return err
			}
			moves, err := tx.Moves(ctx, id)
			if err != nil {
				return err
			}
			for i := range moves {
				moves[i].Message = ""
			}
			want = game.Record(&st, moves, "congo@example.org") + "\n"
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		target := "/games/" + strconv.FormatInt(id, 10) + ".pgn"
		rec := get(h, target)
		if rec.Code != http.StatusOK || rec.Body.String() != want {
			t.Errorf("GET %s = %d:\n%s\nwant the record:\n%s", target, rec.Code, rec.Body, want)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "text/plain; charset=utf-8" {
			t.Errorf("GET %s: Content-Type %q, want text/plain; charset=utf-8", target, ct)
		}
	}
	// Game 5 has no message: its record is the history mail's to the
	// letter; game 1's lacks its players' messages.
	if rec := get(h, "/games/1.pgn"); strings.Contains(rec.Body.String(), "{") {
		t.Errorf("GET /games/1.pgn shows the players' messages:\n%s", rec.Body)
	}
}

// TestNotFound checks that every address of nothing, and of what is not
// public, is a 404 page (M46), and a malformed step a 400.
func TestNotFound(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	for _, target := range []string{
		"/games/99", "/games/0", "/games/-1", "/games/01", "/games/abc", "/games/99.pgn",
		"/games/3", "/games/3.pgn", // a challenge waiting
		"/games/4", "/games/4.pgn", // a challenge declined
		"/games/1?ply=4",
		"/players/nobody", "/players/nobody.atom",
		"/players/eve", "/players/eve.atom", // registered by a mail that proved nothing
		"/tournaments/99", "/tournaments/x",
		"/games/", "/games", "/players/", "/nothing", "/games/1/more", "/static/none.css", "/ratings/",
	} {
		rec := get(h, target)
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", target, rec.Code)
			continue
		}
		if ct := rec.Header().Get("Content-Type"); ct != htmlType || !strings.Contains(rec.Body.String(), "<h1>Not found</h1>") {
			t.Errorf("GET %s: a 404 of type %q without the page", target, ct)
		}
	}
	for _, target := range []string{"/games/1?ply=x", "/games/1?ply=-1", "/games/1?ply=1&ply=2"} {
		if rec := get(h, target); rec.Code != http.StatusBadRequest {
			t.Errorf("GET %s = %d, want 400", target, rec.Code)
		}
	}
}

// TestOtherPages checks the home page, the ratings, a player's page and
// the tournaments' pages.
func TestOtherPages(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	home := mustGet(t, h, "/")
	for _, want := range []string{"2 games are in progress", `<a href="/games/2">2</a>`, `<a href="/games/1">1</a>`,
		`<a href="/tournaments/1">Spring Cup</a>`, `<a href="/tournaments/2">Autumn Open</a>`, `<a href="/ratings">All the ratings</a>`} {
		if !strings.Contains(home, want) {
			t.Errorf("GET / lacks %q", want)
		}
	}
	for _, hidden := range []string{`href="/games/3"`, `href="/games/4"`, "eve"} {
		if strings.Contains(home, hidden) {
			t.Errorf("GET / shows %q, which is not public", hidden)
		}
	}
	ratings := mustGet(t, h, "/ratings")
	if a, c, b := strings.Index(ratings, ">alice<"), strings.Index(ratings, ">carol<"), strings.Index(ratings, ">bob<"); a < 0 || a > c || c > b ||
		strings.Contains(ratings, ">dave<") {
		t.Errorf("GET /ratings does not list alice, carol, bob in order without dave (no rated game)")
	}
	player := mustGet(t, h, "/players/alice")
	for _, want := range []string{"<h1>alice</h1>", "after 2 rated games", "1 won, 1 drawn, 0 lost, 1 aborted",
		`<svg class="chart"`, `href="/players/alice.atom"`, `<a href="/games/9">9</a>`, `<a href="/games/6">6</a>`} {
		if !strings.Contains(player, want) {
			t.Errorf("GET /players/alice lacks %q", want)
		}
	}
	if strings.Contains(player, `href="/games/3"`) || strings.Contains(player, `href="/games/4"`) {
		t.Errorf("GET /players/alice lists a challenge")
	}
	if got := mustGet(t, h, "/players/ALICE"); !strings.Contains(got, "<h1>alice</h1>") {
		t.Errorf("GET /players/ALICE is not alice's page: handles ignore case")
	}
	cup := mustGet(t, h, "/tournaments/1")
	for _, want := range []string{"<h1>Spring Cup</h1>", "2 of 3 games over", "<h2>Crosstable</h2>", ">½<", ">×<"} {
		if !strings.Contains(cup, want) {
			t.Errorf("GET /tournaments/1 lacks %q", want)
		}
	}
	open := mustGet(t, h, "/tournaments/2")
	if !strings.Contains(open, "<code>join tournament 2</code>") || !strings.Contains(open, ">dave<") || strings.Contains(open, "Standings") {
		t.Errorf("GET /tournaments/2 does not show an open tournament with its players")
	}
}

// TestGamePageFromBlack: ?side=black shows the board from Black's side,
// and every link of the page keeps it; each page offers the other side,
// a link that keeps the position; any other side is a bad request.
func TestGamePageFromBlack(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	page := mustGet(t, h, "/games/1")
	if !strings.Contains(page, `<a href="/games/1?side=black">See the board from Black's side</a>`) {
		t.Errorf("GET /games/1 offers not Black's side")
	}
	black := mustGet(t, h, "/games/1?side=black")
	for _, want := range []string{
		`<a href="/games/1">See the board from White's side</a>`,
		`<a href="/games/1?ply=1&amp;side=black">d2-e3</a>`,
		`<a href="/games/1?ply=3&amp;side=black" aria-current="step">d1xd7</a>`,
		`seen from Black&#39;s side`,
		`<meta name="robots" content="noindex">`,
	} {
		if !strings.Contains(black, want) {
			t.Errorf("GET /games/1?side=black lacks %q", want)
		}
	}
	step := mustGet(t, h, "/games/1?ply=1&side=black")
	for _, want := range []string{
		`<a href="/games/1?ply=1">See the board from White's side</a>`,
		`<a href="/games/1?ply=0&amp;side=black" data-step="first"`,
		`<a href="/games/1?ply=2&amp;side=black" data-step="next"`,
		`<a href="/games/1?side=black" data-step="last"`,
	} {
		if !strings.Contains(step, want) {
			t.Errorf("GET /games/1?ply=1&side=black lacks %q", want)
		}
	}
	for _, bad := range []string{"/games/1?side=red", "/games/1?side=black&side=white"} {
		if code := get(h, bad).Code; code != http.StatusBadRequest {
			t.Errorf("GET %s = %d, want %d", bad, code, http.StatusBadRequest)
		}
	}
}

// TestChartOneGame: the rating chart of a player with one rated game
// draws its band and line across the plot, not as a tall bar at one day.
func TestChartOneGame(t *testing.T) {
	t.Parallel()
	h := newWorld(t).handler(t)
	svg := string(h.chart("zed", []ratingPoint{{Game: 1, At: t0, Rating: 1662, Deviation: 290}}))
	band := regexp.MustCompile(`class="band"[^>]* d="M(\d+) [\d.]+h(\d+)V`).FindStringSubmatch(svg)
	if band == nil || band[1] != fmt.Sprint(plotL) || band[2] != fmt.Sprint(plotW) {
		t.Errorf("the band of one game is %q, want it across the plot, from %d for %d:\n%s", band, plotL, plotW, svg)
	}
	if !strings.Contains(svg, fmt.Sprintf(`points="%d,`, plotL)) || !strings.Contains(svg, fmt.Sprintf(` %d,`, plotL+plotW)) {
		t.Errorf("the line of one game does not cross the plot:\n%s", svg)
	}
}

// TestMovesPlayed: the player page counts a game's moves as the mails
// do (R21): a move is White's and Black's.
func TestMovesPlayed(t *testing.T) {
	t.Parallel()
	for plies, want := range map[int]int{0: 0, 1: 1, 2: 1, 3: 2, 60: 30} {
		if got := movesPlayed(plies); got != want {
			t.Errorf("movesPlayed(%d) = %d, want %d", plies, got, want)
		}
	}
	page := mustGet(t, newWorld(t).handler(t), "/players/alice")
	// Game 1: d2-e3 d6-c5 d1xd7, two moves.
	if !regexp.MustCompile(`<a href="/games/1">1</a>.*<td class="num when">2</td>`).MatchString(page) {
		t.Errorf("GET /players/alice does not count game 1 as 2 moves")
	}
}
