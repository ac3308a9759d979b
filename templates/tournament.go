package templates

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/congobymail/congo/lang"
)

// Tournament is a tournament as mails name it (M33-M39, M73-M74).
type Tournament struct {
	ID          int64
	Name        string
	Swiss       bool // else a round robin, unless Ladder or Knockout
	Ladder      bool
	Knockout    bool
	Rounds      int // 0 for a Swiss until it starts (the default is decided then); a ladder has none
	Double      bool
	Games       int    // of a knockout's match
	TimeControl string // "days=3", "bank=10+1"
	Unrated     bool
	Director    string
	Status      string   // "open", "running", "finished", "cancelled"
	Closed      bool     // a ladder closed by its director, its last games being played
	Round       int      // the round being played, from 1; 0 before the start
	Players     []string // handles, in the order they joined; a ladder's by place
	MinPlayers  int      // the fewest it starts with
	// Pauses is set when its games may be paused by agreement (M63);
	// NoVacation when vacations do not stop their clocks (M67).
	Pauses     bool
	NoVacation bool
	Reach      int // how many places above their own a ladder's player may challenge
}

// tournamentSubject is the Subject of every mail about the tournament,
// so that it keeps one thread: "Congo tournament 3: Spring Cup" (template
// "tournament_subject").
func (t *tongue) tournamentSubject(tt Tournament) (string, error) {
	s, err := t.raw("tournament_subject", tt)
	return strings.TrimSpace(s), err
}

// TournamentGame is a game of a tournament, for its lists.
type TournamentGame struct {
	Round        int
	GameID       int64
	White, Black string
	Result       string // "1-0", "0-1", "½-½"; "" while it is played
	// Width is the columns of the widest game number of the list the
	// game is in, so that its players line up (alignGames); 0 alone.
	Width int
}

// Standing is one line of a tournament's standings.
type Standing struct {
	Line      string // as M37 writes it: "1. alice  2.5  (SB 3.25)"
	Place     int
	Handle    string
	Points    string // decimals: "2.5"
	Buchholz  string // for a Swiss
	SB        string
	Withdrawn bool
}

// Crosstable is a round robin's results player against player, in the
// order of the standings.
type Crosstable struct {
	// Text is the text part's figure, one line a player, its columns
	// headed (the points' in the reader's language); TournamentMail
	// writes it from the others.
	Text    string
	Handles []string   // by place
	Cells   [][]string // Cells[i][j]: what Handles[i] scored against Handles[j]: "1", "½", "0", "1½", ""
	Points  []string
}

// LadderLine is a line of a ladder (M73).
type LadderLine struct {
	Line                string // "1. alice  (3-1-0)"
	Place               int
	Handle              string
	Wins, Draws, Losses int
	// Gap is set for the line that stands for the places left out of
	// a long ladder; it has no player.
	Gap bool
}

// LadderMove is a player's change of place on a ladder.
type LadderMove struct {
	Handle   string
	From, To int
}

// News is what a tournament mail tells.
type News string

const (
	TournamentStarted   News = "started"     // the start: a round robin's games, a Swiss's first round
	TournamentRound     News = "round"       // a Swiss's next round, after the standings of the one before
	TournamentRoundOver News = "round over"  // every game of a round robin's round has ended
	TournamentOver      News = "finished"    // the last game has ended: the final standings
	TournamentCancelled News = "cancelled"   // called off before the start
	TournamentWithdrawn News = "withdrawn"   // the director withdrew the recipient
	TournamentJoined    News = "joined"      // a player joined: told to the director
	TournamentStandings News = "standings"   // the answer to tournament <t>
	TournamentLeftNews  News = "player left" // a player left before the start: told to the director
	LadderChallenged    News = "challenged"  // the recipient was challenged on a ladder (By), Game begun
	LadderMoved         News = "moved"       // a ladder game's end moved the recipient: Moves
	LadderClosed        News = "closed"      // the director closed a ladder (the answer)
	TieGameBegun        News = "tie game"    // the recipient's knockout match ended level: a tie game, Game
)

// TournamentData is a mail about a tournament to one player.
type TournamentData struct {
	Lang lang.Code // the recipient's language; "" for English
	To   string
	T    Tournament
	News News
	// Round is the round begun (TournamentStarted, TournamentRound) or
	// over (TournamentRoundOver, TournamentOver).
	Round int
	// By is who did it: the director or the operator who cancelled or
	// withdrew, the player who joined or left.
	By string
	// Yours are the recipient's games that begin (all of a round robin's
	// at the start) or, with TournamentWithdrawn, that were lost.
	Yours []TournamentGame
	// Pairings are a Swiss round's games, board by board, and Bye the
	// player who has none; for TournamentStandings, the games of the
	// round being played.
	Pairings []TournamentGame
	Bye      string
	// Rematches are pairings that repeat a game, for the director: no
	// pairing without one existed.
	Rematches []TournamentGame
	// Standings are after Round (or so far), with the crosstable of a
	// round robin.
	Standings  []Standing
	Crosstable *Crosstable
	// Playing are the games still being played, for TournamentStandings.
	Playing int

	// Ladder is a ladder's order (the answer to tournament <t>, the
	// final one), InProgress its games being played.
	Ladder     []LadderLine
	InProgress []TournamentGame
	// Place is the recipient's place on a ladder, and Other the other
	// player's, of the game that was begun (LadderChallenged).
	Place, Other int
	// Game is the ladder game begun (LadderChallenged) or ended
	// (LadderMoved), White the challenger; or the knockout's tie game
	// begun (TieGameBegun).
	Game *TournamentGame
	// Moves are the changes of place of a ladder game's end, the
	// winner's first.
	Moves []LadderMove
	// Bracket is a knockout's bracket, Match the recipient's match in
	// the round begun (or the one tied).
	Bracket *Bracket
	Match   *Match
}

// Director reports whether the recipient directs the tournament.
func (d TournamentData) Director() bool { return d.To == d.T.Director }

// TournamentMail renders a mail about a tournament: its Subject, text
// and HTML alternative, where the standings and the crosstable are
// tables.
func TournamentMail(d TournamentData) (subject, text, html string, err error) {
	t := tongueOf(d.Lang)
	d.Yours, d.Pairings, d.InProgress = alignGames(d.Yours), alignGames(d.Pairings), alignGames(d.InProgress)
	if subject, err = t.tournamentSubject(d.T); err != nil {
		return "", "", "", err
	}
	if d.Bracket != nil { // drawn in the recipient's language, on a copy: others share it
		b := *d.Bracket
		if b.Text, err = t.bracketText(&b); err != nil {
			return "", "", "", err
		}
		d.Bracket = &b
	}
	var inserts []insert
	if len(d.Ladder) > 0 {
		table, err := t.ladderTable(d.Ladder)
		if err != nil {
			return "", "", "", err
		}
		inserts = append(inserts, insert{text: ladderText(d.Ladder), block: htmlBlock{Table: table}})
	}
	if b := d.Bracket; b != nil {
		table, err := t.bracketTable(b)
		if err != nil {
			return "", "", "", err
		}
		// As the text part has it: indented, and tidy trims the blank line.
		figure := strings.ReplaceAll(indent("  ", strings.TrimRight(b.Text, "\n")), "\n  \n", "\n\n")
		inserts = append(inserts, insert{text: figure, block: htmlBlock{Table: table}})
	}
	if len(d.Standings) > 0 {
		table, err := t.standingsTable(d.T.Swiss, d.Standings)
		if err != nil {
			return "", "", "", err
		}
		inserts = append(inserts, insert{text: standingsText(d.Standings), block: htmlBlock{Table: table}})
	}
	if d.Crosstable != nil {
		c := *d.Crosstable
		head, err := t.head("crosstable_head", nil)
		if err != nil {
			return "", "", "", err
		}
		c.Text = crosstableText(&c, head[1])
		d.Crosstable = &c
	}
	if text, err = t.execute("tournament_mail", d); err != nil {
		return "", "", "", err
	}
	if c := d.Crosstable; c != nil {
		table, err := t.crosstableTable(c)
		if err != nil {
			return "", "", "", err
		}
		inserts = append(inserts, insert{text: indent("  ", strings.TrimRight(c.Text, "\n")), block: htmlBlock{Table: table}})
	}
	if html, err = t.pageHTMLWith(subject, text, inserts); err != nil {
		return "", "", "", err
	}
	return subject, text, html, nil
}

// ladderText is a ladder as the text part writes it, one line each.
func ladderText(ls []LadderLine) string {
	lines := make([]string, len(ls))
	for i, l := range ls {
		lines[i] = l.Line
		if l.Gap {
			lines[i] = "  ..." // as template "ladder_lines" writes it
		}
	}
	return strings.Join(lines, "\n")
}

// ladderTable is a ladder as a table, its heading in t's language
// (template "ladder_head").
func (t *tongue) ladderTable(ls []LadderLine) (*htmlTable, error) {
	head, err := t.head("ladder_head", nil)
	if err != nil {
		return nil, err
	}
	table := &htmlTable{Head: append([]string{""}, head...), Numeric: []bool{true, false, true, true, true}}
	for _, l := range ls {
		if l.Gap {
			table.Rows = append(table.Rows, []string{"…", "", "", "", ""})
			continue
		}
		table.Rows = append(table.Rows, []string{fmt.Sprint(l.Place), l.Handle, fmt.Sprint(l.Wins), fmt.Sprint(l.Draws), fmt.Sprint(l.Losses)})
	}
	return table, nil
}

// bracketTable is a knockout's bracket as a table, a match a row, round
// by round, its heading in t's language (template "bracket_head").
func (t *tongue) bracketTable(b *Bracket) (*htmlTable, error) {
	head, err := t.head("bracket_head", nil)
	if err != nil {
		return nil, err
	}
	bye, err := t.raw("bracket_bye", nil)
	if err != nil {
		return nil, err
	}
	table := &htmlTable{Head: head, Numeric: []bool{false, false, true, false, false}}
	for _, r := range b.Rounds {
		name, err := t.raw("bracket_round", r)
		if err != nil {
			return nil, err
		}
		for _, m := range r.Matches {
			side := func(i int) string {
				switch {
				case m.Players[i] == "" && r.Round == 1:
					return bye
				case m.Players[i] == "":
					return "?"
				case m.Seeds[i] != 0:
					return fmt.Sprintf("%s (%d)", m.Players[i], m.Seeds[i])
				}
				return m.Players[i]
			}
			score := ""
			if m.Points[0] != "" || m.Points[1] != "" {
				score = orDash(m.Points[0]) + "–" + orDash(m.Points[1])
			}
			table.Rows = append(table.Rows, []string{name, side(0), score, side(1), m.Winner})
		}
	}
	return table, nil
}

// standingsText is the standings as the text part writes them, one line
// each.
func standingsText(st []Standing) string {
	lines := make([]string, len(st))
	for i, s := range st {
		lines[i] = s.Line
	}
	return strings.Join(lines, "\n")
}

// standingsTable is the standings as a table, its heading in t's
// language (template "standings_head").
func (t *tongue) standingsTable(swiss bool, st []Standing) (*htmlTable, error) {
	head, err := t.head("standings_head", swiss)
	if err != nil {
		return nil, err
	}
	withdrew, err := t.raw("withdrew", nil)
	if err != nil {
		return nil, err
	}
	table := &htmlTable{Head: append([]string{""}, head...), Numeric: []bool{true, false, true}}
	if swiss {
		table.Numeric = append(table.Numeric, true)
	}
	table.Numeric = append(table.Numeric, true)
	for _, s := range st {
		handle := s.Handle
		if s.Withdrawn {
			handle += " " + withdrew
		}
		row := []string{fmt.Sprint(s.Place), handle, s.Points}
		if swiss {
			row = append(row, s.Buchholz)
		}
		table.Rows = append(table.Rows, append(row, s.SB))
	}
	return table, nil
}

// head is the heading of a table, its cells one a line of template name.
func (t *tongue) head(name string, data any) ([]string, error) {
	s, err := t.raw(name, data)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.Trim(s, "\n"), "\n"), nil
}

// crosstableTable is a round robin's crosstable as a table, its heading
// in t's language (template "crosstable_head").
func (t *tongue) crosstableTable(c *Crosstable) (*htmlTable, error) {
	head, err := t.head("crosstable_head", nil)
	if err != nil {
		return nil, err
	}
	table := &htmlTable{Head: []string{"", head[0]}, Numeric: []bool{true, false}}
	for i := range c.Handles {
		table.Head, table.Numeric = append(table.Head, fmt.Sprint(i+1)), append(table.Numeric, true)
	}
	table.Head, table.Numeric = append(table.Head, head[1]), append(table.Numeric, true)
	for i, h := range c.Handles {
		row := []string{fmt.Sprint(i + 1), h}
		for j, x := range c.Cells[i] {
			switch {
			case i == j:
				x = "×"
			case x == "":
				x = "·"
			}
			row = append(row, x)
		}
		table.Rows = append(table.Rows, append(row, c.Points[i]))
	}
	return table, nil
}

// crosstableText writes a crosstable as the text part shows it: a line
// for each player, their place and handle, their results against each
// player by place ("×" against themselves, "·" where no game has ended
// yet) and their points, under a line of headings: the places, and
// totals over the points.
//
//	          1  2  3  Points
//	1. alice  ×  1  ½  1.5
//	2. bob    0  ×  1  1
//	3. carol  ½  0  ×  0.5
func crosstableText(c *Crosstable, totals string) string {
	names := make([]string, len(c.Handles))
	nameW, cellW := 0, 1
	for i, h := range c.Handles {
		names[i] = fmt.Sprintf("%d. %s", i+1, h)
		nameW = max(nameW, utf8.RuneCountInString(names[i]))
		cellW = max(cellW, len(fmt.Sprint(i+1)))
		if i < len(c.Cells) {
			for _, x := range c.Cells[i] {
				cellW = max(cellW, utf8.RuneCountInString(x))
			}
		}
	}
	var b strings.Builder
	pad := func(s string, w int) {
		b.WriteString(s)
		b.WriteString(strings.Repeat(" ", max(0, w-utf8.RuneCountInString(s))))
	}
	pad("", nameW)
	for i := range c.Handles {
		b.WriteString("  ")
		pad(fmt.Sprint(i+1), cellW)
	}
	b.WriteString("  ")
	b.WriteString(totals)
	b.WriteString("\n")
	for i := range c.Handles {
		pad(names[i], nameW)
		for j := range c.Handles {
			x := ""
			if i < len(c.Cells) && j < len(c.Cells[i]) {
				x = c.Cells[i][j]
			}
			switch {
			case i == j:
				x = "×"
			case x == "":
				x = "·"
			}
			b.WriteString("  ")
			pad(x, cellW)
		}
		b.WriteString("  ")
		if i < len(c.Points) {
			b.WriteString(c.Points[i])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TournamentCreated answers tournament new (M33).
type TournamentCreated struct{ T Tournament }

// TournamentJoin answers join tournament and leave tournament.
type TournamentJoin struct {
	T    Tournament
	Left bool // leave tournament before the start
	// Place is the place a player who joins a ladder takes, at its
	// bottom, and Reach the players they may challenge, nearest first.
	Place int
	Reach []string
}

// TournamentRobot answers tournament <t> add robot (M60): the robot,
// Robot, is a player of T now, at Level.
type TournamentRobot struct {
	T     Tournament
	Robot string
	Level int
}

// TournamentDone answers tournament start, cancel and kick, and leave
// tournament after the start.
type TournamentDone struct {
	T    Tournament
	News News   // TournamentStarted, TournamentCancelled, TournamentWithdrawn
	Who  string // who withdrew, for TournamentWithdrawn; the sender when they left
	You  bool   // the sender withdrew themselves
	Lost []int64
	// Games are the games that began at the start; with LadderClosed,
	// the games still being played.
	Games int
}

// LadderChallenge answers challenge ladder (M73): the game begun.
type LadderChallenge struct {
	T      Tournament
	Game   TournamentGame // the challenger White
	Places [2]int         // the challenger's place and the one challenged
}

// TournamentList answers tournaments (M34).
type TournamentList struct {
	Open, Running []Tournament
}

func (TournamentCreated) template() string { return "tournament_created" }
func (TournamentRobot) template() string   { return "tournament_robot" }
func (TournamentJoin) template() string    { return "tournament_join" }
func (TournamentDone) template() string    { return "tournament_done" }
func (TournamentList) template() string    { return "tournaments" }
func (LadderChallenge) template() string   { return "ladder_challenge" }
