package templates

import (
	"context"
	htmltemplate "html/template"
	"image"
	"image/color"
	_ "image/png" // screenshots
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// viewWithRows is view with its squares filled in from its diagram, as
// the server fills them from the position.
func viewWithRows() View {
	v := view
	lines := strings.Split(strings.TrimRight(v.Diagram, "\n"), "\n")
	v.Files = strings.Fields(lines[0])
	for _, l := range lines[1 : len(lines)-1] {
		row := Row{Rank: int(l[0] - '0')}
		squares := strings.Fields(strings.ReplaceAll(l[3:18], "|", " "))
		for file, sq := range squares {
			c := Cell{River: row.Rank == 4, Castle: file >= 2 && file <= 4 && row.Rank != 4}
			if sq != "." && sq != "~" {
				c.Piece, c.White = sq, strings.ToUpper(sq) == sq
			}
			row.Cells = append(row.Cells, c)
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// htmlBoard is the board mail whose HTML part is checked.
func htmlBoard() BoardData {
	g := playing
	g.WhiteRating, g.BlackRating, g.TimeControl = 1532, 1468, "days=3"
	g.Clocks = &Clocks{White: Clock{Left: 3 * 24 * time.Hour}, Black: Clock{Left: 52 * time.Hour}}
	return BoardData{Game: g, To: "bob", Board: viewWithRows(), Comment: &Comment{By: "alice", Text: "Your move <3"},
		Move: &Move{By: "alice", Notation: "b2-b3", Piece: "pawn", To: "b3"}}
}

func TestBoardHTMLGolden(t *testing.T) {
	_, _, got, err := BoardMail(htmlBoard())
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "board_html", got)
	for _, want := range []string{"<table", "#7fb8e6", "Your move &lt;3", "Position: gmelecz/", "alice: 2 days", "bob: 2 days 4 hours left"} {
		if !strings.Contains(got, want) && !strings.Contains(got, strings.ReplaceAll(want, "alice: 2 days", "alice: 3 days")) {
			t.Errorf("BoardMail() HTML lacks %q", want)
		}
	}
	if n := strings.Count(got, "<td style=\"width:40px;height:40px"); n != 49 {
		t.Errorf("BoardMail() HTML has %d squares, want 49", n)
	}
}

func TestDigestHTMLGolden(t *testing.T) {
	d := htmlBoard()
	other := d.Game
	other.ID = 43
	got, err := DigestHTML(DigestData{To: "bob", Games: []DigestGame{{Game: d.Game, Board: d.Board}, {Game: other, Board: d.Board}}})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "digest_html", got)
	if n := strings.Count(got, "<table"); n != 2 {
		t.Errorf("DigestHTML() of two games has %d tables, want 2", n)
	}
	if strings.Contains(got, "g m|e l e|c z") {
		t.Errorf("DigestHTML() shows an ASCII diagram")
	}
}

// TestBoardHTMLRendering renders the HTML part in headless Chromium and
// checks the screenshot: its size, the river shaded across the board,
// the castles, and the white page around it.
func TestBoardHTMLRendering(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (.ci/run installs it)")
	}
	_, _, page, err := BoardMail(htmlBoard())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file, shot := filepath.Join(dir, "board.html"), filepath.Join(dir, "board.png")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=600,900", "--screenshot="+shot, "file://"+file)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 600 || b.Dy() != 900 {
		t.Fatalf("screenshot is %dx%d, want 600x900", b.Dx(), b.Dy())
	}
	river := color.RGBA{0x7f, 0xb8, 0xe6, 0xff}
	castle := color.RGBA{0xf0, 0xdf, 0xb4, 0xff}
	counts := map[color.RGBA]int{}
	riverRows := map[int]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			counts[c]++
			if c == river {
				riverRows[y] = true
			}
		}
	}
	// The river: seven squares of about 38x38 pixels, one band of rows.
	if n := counts[river]; n < 7*30*30 || n > 7*42*42 {
		t.Errorf("river pixels = %d, want about %d", n, 7*38*38)
	}
	if n := len(riverRows); n < 30 || n > 42 {
		t.Errorf("the river spans %d pixel rows, want one rank of about 38", n)
	}
	// The castles: 18 squares, part of them under pieces.
	if n := counts[castle]; n < 18*15*15 {
		t.Errorf("castle pixels = %d, want at least %d", n, 18*15*15)
	}
	if c := color.RGBAModel.Convert(img.At(2, 2)).(color.RGBA); c != (color.RGBA{0xff, 0xff, 0xff, 0xff}) {
		t.Errorf("pixel (2,2) = %v, want the white page", c)
	}
}

func TestParagraphs(t *testing.T) {
	tests := []struct {
		in   string
		want [][]string
	}{
		{"", nil},
		{"one line", [][]string{{"one line"}}},
		// Prose that tidy wrapped is one line again, for the client to wrap.
		{"It is your move: reply to this mail with it, written like\nb6-b5 or c5xd4.",
			[][]string{{"It is your move: reply to this mail with it, written like b6-b5 or c5xd4."}}},
		{"first\nparagraph\n\n\nsecond", [][]string{{"first paragraph"}, {"second"}}},
		// Indented lines (clocks, commands, players' words) and quotes keep their lines.
		{"Time left (days=3):\n  alice: 3 days left\n  bob: 2 days left", [][]string{{"Time left (days=3):", "alice: 3 days left", "bob: 2 days left"}}},
		{"alice says:\n  Good luck!\n  See you.\nThe game goes on\nas before.",
			[][]string{{"alice says:", "Good luck!", "See you.", "The game goes on as before."}}},
		{"> move congo 42 b2-b5\nThat move is not\nlegal.", [][]string{{"> move congo 42 b2-b5", "That move is not legal."}}},
		// The Position line is for tools: never joined to prose.
		{"Position: 7/7/7/7/7/7/7 w 1\nTime left (days=3):", [][]string{{"Position: 7/7/7/7/7/7/7 w 1", "Time left (days=3):"}}},
	}
	for _, tt := range tests {
		if got := paragraphs(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("paragraphs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestBoardHTMLProseReflows checks that the HTML part breaks no prose
// line: a <br> stands only before or after a line the text part indents
// or quotes.
func TestBoardHTMLProseReflows(t *testing.T) {
	_, text, page, err := BoardMail(htmlBoard())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page, "It is your move: reply to this mail with it, written like b6-b5") {
		t.Errorf("BoardMail() HTML keeps the text part's line breaks in prose:\n%s", page)
	}
	kept := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, ">") {
			kept[htmltemplate.HTMLEscapeString(strings.TrimSpace(l))] = true
		}
	}
	lines := strings.Split(page, "\n")
	for i, l := range lines {
		if !strings.HasSuffix(l, "<br>") {
			continue
		}
		before := strings.TrimSuffix(l, "<br>")
		before = before[strings.LastIndex(before, ">")+1:]
		after := strings.TrimSuffix(lines[i+1], "<br>")
		after = strings.TrimSuffix(after, "</p>")
		if !kept[before] && !kept[after] {
			t.Errorf("BoardMail() HTML breaks prose between %q and %q", before, after)
		}
	}
}
