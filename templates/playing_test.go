package templates

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/rules"
)

// personal is the personal address the one-tap moves of the tests reply
// to.
const personal = "congo+abcdefghijklmnopqrstuvwxyz@example.org"

// TestPlayingGolden: the mails of M68-M72 in every language, read as a
// player reads them in a terminal: notes kept and listed, a preview, the
// conditional resignation and draw, a challenge from a position.
func TestPlayingGolden(t *testing.T) {
	t.Parallel()
	after, effs := previewed(t, "gmelecz/ppppppp/7/7/1P5/P1PPPPP/GMELECZ b 1", "c6-c5", "c2-c3", "d6-d5")
	var moves []Move
	for i, e := range effs {
		moves = append(moves, MoveOf([]string{"bob", "alice"}[i%2], e))
	}
	afterGame := playing
	afterGame.MoveNumber, afterGame.ToMove = after.MoveNumber(), "alice"
	won := playing
	won.State, won.ToMove, won.Winner, won.Reason = Won, "", "alice", rules.LionCaptured
	start, err := rules.ParseSetUp("3l3/2p4/7/7/7/3P3/3L3 w 12")
	if err != nil {
		t.Fatal(err)
	}
	startView := ViewOf(start, rules.Black)
	fromPosition := Game{ID: 42, White: "alice", Black: "bob", State: Challenged, TimeControl: "days=3", Unrated: true}

	tests := []struct {
		name   string
		render func(l lang.Code) (string, string, error)
	}{
		{"note_kept", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Game: &playing, Sections: []Section{
				NoteKept{GameID: 42, Text: "Plan: the c-pawn, then the monkey."},
				NoteKept{GameID: 42, At: "12... d6-c5", Text: "He wants my lion on d1: keep e2 covered!"},
			}})
		}},
		{"note_list", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Game: &playing, Sections: []Section{
				NoteList{GameID: 42, Moves: []NotedMove{
					{Notes: []string{"Plan: the c-pawn, then the monkey."}},
					{At: "3. c2-c3", Notes: []string{"He did not see the zebra.", "Next: b3-b4"}},
				}},
				NoteList{GameID: 43},
			}})
		}},
		{"preview", func(l lang.Code) (string, string, error) {
			subject, text, _, err := PreviewMail(PreviewData{Lang: l, Game: playing, To: "bob", Moves: moves, After: afterGame,
				Board: ViewOf(after, rules.Black).WithLast(effs[2].Move), First: "c6-c5"})
			return subject, text, err
		}},
		{"preview_won", func(l lang.Code) (string, string, error) {
			end, effs := previewed(t, "3l3/7/7/7/7/7/3L3 w 9", "d1xd7")
			subject, text, _, err := PreviewMail(PreviewData{Lang: l, Game: playing, To: "bob",
				Moves: []Move{MoveOf("alice", effs[0])}, After: won, Board: ViewOf(end, rules.Black)})
			return subject, text, err
		}},
		{"board_conditional_resign", func(l lang.Code) (string, string, error) {
			g := won
			g.Winner, g.Reason = "bob", rules.Resigned
			return Board(BoardData{Lang: l, Game: g, To: "bob", Board: view,
				Moves:  []Move{{By: "bob", Notation: "c3xd4", Piece: "pawn", To: "d4", Captured: []Piece{{"monkey", "d4"}}}},
				Events: []Happening{{Event: ConditionalResign, By: "alice"}}})
		}},
		{"board_conditional_resign_own", func(l lang.Code) (string, string, error) {
			g := won
			g.Winner, g.Reason = "bob", rules.Resigned
			return Board(BoardData{Lang: l, Game: g, To: "alice", Board: view,
				Moves:  []Move{{By: "bob", Notation: "c3xd4", Piece: "pawn", To: "d4", Captured: []Piece{{"monkey", "d4"}}}},
				Events: []Happening{{Event: ConditionalResign, By: "alice"}}})
		}},
		{"board_conditional_draw", func(l lang.Code) (string, string, error) {
			g := won
			g.State, g.Winner, g.Reason = Drawn, "", rules.Agreed
			return Board(BoardData{Lang: l, Game: g, To: "bob", Board: view,
				Moves:  []Move{{By: "bob", Notation: "b6-b5", Piece: "pawn", To: "b5"}},
				Events: []Happening{{Event: ConditionalDraw, By: "alice"}}})
		}},
		{"board_conditional_offer", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: playing, To: "bob", Board: view,
				Moves:  []Move{{By: "bob", Notation: "b6-b5", Piece: "pawn", To: "b5"}},
				Events: []Happening{{Event: DrawOffered, By: "alice", Conditional: true}}})
		}},
		{"board_conditional_offer_own", func(l lang.Code) (string, string, error) {
			return Board(BoardData{Lang: l, Game: playing, To: "alice", Board: view,
				Moves:  []Move{{By: "bob", Notation: "b6-b5", Piece: "pawn", To: "b5"}},
				Events: []Happening{{Event: DrawOffered, By: "alice", Conditional: true}}})
		}},
		{"challenge_position", func(l lang.Code) (string, string, error) {
			return Challenge(ChallengeData{Lang: l, Game: fromPosition, To: "bob", Challenger: "alice", Challenged: "bob", Start: &startView})
		}},
		{"challenge_sent_position", func(l lang.Code) (string, string, error) {
			v := ViewOf(start, rules.White)
			return ChallengeSent(ChallengeData{Lang: l, Game: fromPosition, To: "alice", Challenger: "alice", Challenged: "bob", Start: &v})
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
				checkGolden(t, name, mail{subject, body}.String())
				checkMailText(t, l, subject, body)
			})
		}
	}
}

// previewed plays moves from the position pos, as a preview does, and
// returns the position after them and what each did.
func previewed(t testing.TB, pos string, moves ...string) (rules.Position, []rules.Effects) {
	t.Helper()
	p, err := rules.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	var effs []rules.Effects
	for _, m := range moves {
		var eff rules.Effects
		if p, eff, err = p.Play(m); err != nil {
			t.Fatal(err)
		}
		effs = append(effs, eff)
	}
	return p, effs
}

// tapsBoard is a board mail to bob, black and to move after alice's
// c3xe5xc7, with his moves as one-tap links (M71).
func tapsBoard(t testing.TB) (BoardData, rules.Position) {
	t.Helper()
	d := lastMoveBoard(t)
	pos, err := rules.ParsePosition(d.Board.Position)
	if err != nil {
		t.Fatal(err)
	}
	d.Taps = TapsOf(pos, personal)
	return d, pos
}

// TestBoardHTMLTaps: the HTML part of a board mail to the player to move
// has each of their legal moves as a link, grouped by piece; its text
// part has none; every link replies to their personal address with the
// game's Subject and the command of the move with its number (M1, M71),
// percent-encoded as RFC 6068 says.
func TestBoardHTMLTaps(t *testing.T) {
	t.Parallel()
	d, pos := tapsBoard(t)
	_, text, html, err := BoardMail(d)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "board_html_taps", html)
	if strings.Contains(text, "mailto:") || strings.Contains(text, personal) {
		t.Errorf("the text part has one-tap moves:\n%s", text)
	}
	links := tapLinks(t, html)
	if len(links) != len(pos.Legal()) {
		t.Errorf("%d links, want one for each of the %d legal moves", len(links), len(pos.Legal()))
	}
	seen := map[string]bool{}
	for _, l := range links {
		subject, body := l.Query().Get("subject"), l.Query().Get("body")
		if l.Scheme != "mailto" || l.Opaque != personal {
			t.Errorf("link %s does not go to %s", l, personal)
		}
		if subject != "Re: Congo game 42: alice vs bob" {
			t.Errorf("link %s: Subject %q", l, subject)
		}
		move, ok := strings.CutPrefix(body, "move congo 42 ")
		move, ok2 := strings.CutSuffix(move, " #7")
		if !ok || !ok2 {
			t.Errorf("link %s: body %q, want move congo 42 <move> #7", l, body)
			continue
		}
		if m, err := pos.ParseMove(move); err != nil || m.String() != move {
			t.Errorf("link %s: %q is not a legal move written canonically (%v)", l, move, err)
		}
		seen[move] = true
		// RFC 6068: a space is %20, never "+"; "#" is %23.
		if raw := l.RawQuery; strings.Contains(raw, "+") || strings.Contains(raw, "#") || !strings.Contains(raw, "%20%237") {
			t.Errorf("link %s is not percent-encoded as RFC 6068 says", l)
		}
	}
	if len(seen) != len(pos.Legal()) {
		t.Errorf("%d moves linked, want the %d legal ones", len(seen), len(pos.Legal()))
	}
	// Grouped by piece, from black's back rank: its first group is a
	// piece on rank 7.
	if !strings.Contains(html, ">Giraffe a7:</span>") || !strings.Contains(html, ">Pawn b4:</span>") {
		t.Errorf("the HTML part has no groups by piece like Giraffe a7: and Pawn b4:")
	}
	// Another language: the group's piece in its words, the Subject in
	// its words, UTF-8 percent-encoded.
	d.Lang, d.Game.SubjectLang = lang.Japanese, lang.Japanese
	_, _, html, err = BoardMail(d)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "board_html_taps.ja", html)
	ja := tapLinks(t, html)
	if got := ja[0].Query().Get("subject"); got != "Re: Congo 対局 42: alice 対 bob" {
		t.Errorf("Japanese link's Subject = %q", got)
	}
	if !strings.Contains(ja[0].RawQuery, "%E5%AF%BE%E5%B1%80") {
		t.Errorf("Japanese link %s does not percent-encode the Subject's UTF-8", ja[0])
	}
	d.Lang, d.Game.SubjectLang = lang.Czech, lang.Czech
	if _, _, html, err = BoardMail(d); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "board_html_taps.cs", html)
}

var hrefs = regexp.MustCompile(`href="(mailto:[^"]*)"`)

// tapLinks returns the mailto: links of an HTML part, as a browser reads
// them: the attribute unescaped, then parsed as a URL.
func tapLinks(t testing.TB, html string) []*url.URL {
	t.Helper()
	var out []*url.URL
	for _, m := range hrefs.FindAllStringSubmatch(html, -1) {
		u, err := url.Parse(strings.ReplaceAll(m[1], "&amp;", "&"))
		if err != nil {
			t.Fatalf("link %q: %v", m[1], err)
		}
		out = append(out, u)
	}
	return out
}

// TestTapsFit: a board mail with one-tap moves stays under 40 KB as sent
// (M71), with the most moves there were in thousands of random games, the
// longest handles and a Japanese Subject; when the moves do not all fit,
// those of the pieces that fit are there, and a line says so.
func TestTapsFit(t *testing.T) {
	t.Parallel()
	pos, err := rules.ParsePosition("g2e2z/p1el3/p2p2p/2m1c2/PPPPPP1/1Z1P3/M1ELE2 b 20")
	if err != nil {
		t.Fatal(err)
	}
	long := Game{ID: 123456, White: "abcdefghijklmnopqrst", Black: "tsrqponmlkjihgfedcba", State: Playing, ToMove: "tsrqponmlkjihgfedcba",
		MoveNumber: 20, Event: "The Great Spring Cup of the Congo Club", Round: 9, TimeControl: "bank=10+1",
		Clocks: &Clocks{White: Clock{Left: 100 * 3600e9}, Black: Clock{Left: 90 * 3600e9}}}
	for _, l := range lang.All {
		g := long
		g.SubjectLang = l
		d := BoardData{Lang: l, Game: g, To: g.Black, Board: ViewOf(pos, rules.Black),
			Page: "https://congo.example.org/games/123456", Taps: TapsOf(pos, "congo+abcdefghijklmnopqrstuvwxyz@pbm.example.net"),
			Message: &Message{By: g.White, Text: strings.Repeat("A few words of mine. ", 20)}}
		subject, text, html, err := BoardMail(d)
		if err != nil {
			t.Fatal(err)
		}
		raw, _, err := mailmsg.Compose(mailmsg.Outgoing{From: "congo@pbm.example.net", FromName: "Congo", To: "tsrqponmlkjihgfedcba@example.org",
			ToName: g.Black, ReplyTo: d.Taps.Address, Subject: subject, Text: text, HTML: html, Language: string(l),
			InReplyTo: []string{"0123456789abcdef0123456789abcdef@pbm.example.net"}, References: []string{"0123456789abcdef0123456789abcdef@pbm.example.net"},
			Date: time.Date(2025, 6, 14, 10, 0, 0, 0, time.UTC)}, "pbm.example.net")
		if err != nil {
			t.Fatal(err)
		}
		if len(raw) > maxBoardMail || sentSize(text, html) < len(raw) {
			t.Errorf("%s: the board mail is %d bytes as sent (%d reckoned), want at most %d, and reckoned no less", l, len(raw), sentSize(text, html), maxBoardMail)
		}
		links := len(tapLinks(t, html))
		more, _ := tongueOf(l).raw("taps_more_html", nil)
		cut := strings.Contains(html, strings.TrimSpace(more))
		t.Logf("%s: %d of %d moves linked, %d bytes as sent (%d reckoned)", l, links, len(pos.Legal()), len(raw), sentSize(text, html))
		if links == 0 || cut != (links < len(pos.Legal())) {
			t.Errorf("%s: %d of %d moves linked, and the line that says some are left out is there: %v", l, links, len(pos.Legal()), cut)
		}
	}
}

// TestMailtoEscape: RFC 6068's percent-encoding of a Subject and a body.
func TestMailtoEscape(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"move congo 42 b2-b3 #1", "move%20congo%2042%20b2-b3%20%231"},
		{"Re: Congo game 42: alice vs bob", "Re%3A%20Congo%20game%2042%3A%20alice%20vs%20bob"},
		{"a&b=c?d+e%f", "a%26b%3Dc%3Fd%2Be%25f"},
		{"対局", "%E5%AF%BE%E5%B1%80"},
		{"partie 42: alice – bob", "partie%2042%3A%20alice%20%E2%80%93%20bob"},
	}
	for _, tt := range tests {
		if got := mailtoEscape(tt.in); got != tt.want {
			t.Errorf("mailtoEscape(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if back, err := url.PathUnescape(mailtoEscape(tt.in)); err != nil || back != tt.in {
			t.Errorf("mailtoEscape(%q) reads back as %q (%v)", tt.in, back, err)
		}
	}
}

// TestTapsOf: every legal move, once, under its piece; the pieces from
// the back rank of the side to move.
func TestTapsOf(t *testing.T) {
	t.Parallel()
	taps := TapsOf(rules.Start(), personal)
	var got []string
	n := 0
	for _, g := range taps.Groups {
		got = append(got, g.Kind+" "+g.From)
		n += len(g.Moves)
		for _, m := range g.Moves {
			if !strings.HasPrefix(m, g.From) {
				t.Errorf("group %s %s holds %s", g.Kind, g.From, m)
			}
		}
	}
	if n != 24 {
		t.Errorf("TapsOf(start) holds %d moves, want the 24 legal ones", n)
	}
	want := "giraffe a1,elephant c1,elephant e1,zebra g1,pawn a2,pawn b2,pawn c2,pawn d2,pawn e2,pawn f2,pawn g2"
	if strings.Join(got, ",") != want {
		t.Errorf("TapsOf(start) groups %s, want %s", strings.Join(got, ","), want)
	}
	black, _, _ := rules.Start().Play("b2-b3")
	if g := TapsOf(black, personal).Groups[0]; g.From != "a7" {
		t.Errorf("black's first group is %s %s, want the giraffe on a7", g.Kind, g.From)
	}
}
