package analyst

import (
	"context"
	"fmt"
	"strings"

	"github.com/congobymail/congo/analysis"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

// mail queues the mail of a's analysis of the game of st to a
// player, in the game's thread, in reply to the mail that asked for it
// (answers, its Message-ID; "" for none) whose References were refs.
func mail(ctx context.Context, w *tell.Work, st *game.State, a *analysis.Analysis, to db.Player, answers string, refs []string) error {
	data := analysisWords(st, a, to.Handle, w.Address())
	data.Lang = w.Lang(to)
	if err := w.Subject(ctx, &data.Game, to); err != nil {
		return err
	}
	subject, text, html, err := templates.Analysis(data)
	if err != nil {
		return err
	}
	o := w.MailTo(to, subject, text)
	o.HTML = html
	root := st.Game.ThreadRoot
	switch {
	case mailmsg.ValidID(answers):
		o.InReplyTo, o.References = []string{answers}, refs
	case root != "":
		o.InReplyTo, o.References = []string{root}, []string{root}
	}
	_, err = w.Enqueue(ctx, outbox.Mail{Out: o, Game: st.ID()})
	return err
}

// lineAfterBest is how many moves of the engine's line the analysis
// mail shows after the better move.
const lineAfterBest = 5

// analysisWords describes the analysis a of the game of st for a mail
// to the player with handle to, the record's Site being site.
func analysisWords(st *game.State, a *analysis.Analysis, to, site string) templates.AnalysisData {
	d := templates.AnalysisData{Game: tell.GameWords(st), To: to, Nodes: a.Nodes, SVG: a.SVG(), Tables: a.Tables()}
	pawns := func(hundredths int) string { return fmt.Sprintf("%.2f", float64(hundredths)/100) }
	// An evaluation from the endgame tables has a * after it (M77).
	eval := func(e analysis.Eval) string {
		if e.Tables {
			return e.String() + "*"
		}
		return e.String()
	}
	for i := range a.Plies {
		p := &a.Plies[i]
		m := &templates.AnalyzedMove{Move: p.Move.String(), Mark: p.Mark.String(), Eval: eval(p.Eval)}
		if p.Side == rules.White {
			m.Label = fmt.Sprintf("%d. %v", p.Number, p.Move)
		} else {
			m.Label = fmt.Sprintf("%d... %v", p.Number, p.Move)
		}
		if p.Mark != analysis.NoMark {
			m.Note, m.Loss, m.BetterEval = p.Note.String(), pawns(p.Loss), eval(p.BestEval)
			m.Better = p.Best.String()
			if len(p.Line) > 1 && p.Line[0] == p.Best {
				m.Line = analysis.Moves(p.Line[1:], lineAfterBest)
			}
		}
		if n := len(d.Rows); n == 0 || d.Rows[n-1].Number != p.Number || p.Side == rules.White {
			d.Rows = append(d.Rows, templates.AnalysisRow{Number: p.Number})
		}
		row := &d.Rows[len(d.Rows)-1]
		if p.Side == rules.White {
			row.White = m
		} else {
			row.Black = m
		}
	}
	summary := func(handle string, s analysis.Summary) templates.AnalysisSummary {
		return templates.AnalysisSummary{Handle: handle, Moves: s.Moves, Inaccuracies: s.Inaccuracies, Mistakes: s.Mistakes,
			Blunders: s.Blunders, AverageLoss: fmt.Sprintf("%.2f", s.AverageLoss())}
	}
	d.White, d.Black = summary(st.White.Handle, a.Players[rules.White]), summary(st.Black.Handle, a.Players[rules.Black])
	marks := []rune(a.Sparkline())
	for i := 0; i < len(marks); i += graphWidth {
		d.Graph = append(d.Graph, templates.GraphLine{Number: a.Plies[i].Number, Marks: string(marks[i:min(i+graphWidth, len(marks))])})
	}
	// The record's tags are the game's own (game.Record); its moves
	// are the analysis's, marked, and not the players' messages.
	rec := game.Record(st, nil, site)
	cut := strings.LastIndexByte(rec, '\n')
	d.Record = rec[:cut+1] + strings.TrimSuffix(a.Movetext(rec[cut+1:]), "\n")
	return d
}

// graphWidth is the most marks a line of the text graph holds: 30 move
// numbers.
const graphWidth = 60

// failureMail tells a player that the analysis of the game of st
// could not be made, in reply to the mail that asked.
func failureMail(ctx context.Context, w *tell.Work, st *game.State, to db.Player, answers string, refs []string) error {
	g := tell.GameWords(st)
	if err := w.Subject(ctx, &g, to); err != nil {
		return err
	}
	subject, body, err := templates.AnalysisFailure(w.Lang(to), g)
	if err != nil {
		return err
	}
	o := w.MailTo(to, subject, body)
	if mailmsg.ValidID(answers) {
		o.InReplyTo, o.References = []string{answers}, refs
	}
	_, err = w.Enqueue(ctx, outbox.Mail{Out: o, Game: st.ID()})
	return err
}
