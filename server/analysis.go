package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/congobymail/congo/analysis"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

// analysisDay is the window over which a player's requests are counted.
const analysisDay = 24 * time.Hour

// analyze answers analyze congo <id> (M49): the stored analysis of the
// game at once, when there is one; otherwise the request is queued for
// the robot's worker (RunRobot), and the answer says how many analyses
// are ahead of it. A game not finished, or without moves, is refused, and
// so is a player's request past the day's cap. Any finished game may be
// analysed, as its moves are no secret; the analysis mail goes to the
// one who asked, and holds none of the players' messages.
func (h *handling) analyze(ctx context.Context, c parser.Command) error {
	if h.analysed[c.Game] {
		return nil // one answer a game and mail
	}
	st, ok, err := h.namedGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	if h.analysed == nil {
		h.analysed = map[int64]bool{}
	}
	h.analysed[st.ID()] = true
	g := gameWords(&st)
	refuse := func(why templates.AnalysisRefusal) {
		h.answer(templates.AnalysisRefused{Line: c.Line, GameID: st.ID(), Why: why, Game: &g})
		h.note(fmt.Sprintf("analyze %d: %s", st.ID(), why))
		h.refused = true
	}
	if h.replyGame == 0 {
		h.replyGame = st.ID()
	}
	switch st.Game.Status {
	case db.Active, db.Challenged:
		refuse(templates.NotFinished)
		return nil
	case db.Declined:
		refuse(templates.NoMovesToAnalyse)
		return nil
	}
	moves, err := h.tx.Moves(ctx, st.ID())
	if err != nil {
		return err
	}
	if len(moves) == 0 {
		refuse(templates.NoMovesToAnalyse)
		return nil
	}
	stored, err := h.tx.Analysis(ctx, st.ID())
	switch {
	case err == nil:
		a, err := analysis.Decode(stored.Data)
		if err != nil {
			return fmt.Errorf("stored analysis of game %d: %w", st.ID(), err)
		}
		h.note(fmt.Sprintf("analyze %d: sent as stored", st.ID()))
		return h.analysisMail(ctx, &st, a, *h.sender, h.mail.MessageID, h.mail.ReplyReferences(st.Game.ThreadRoot))
	case !errors.Is(err, db.ErrNotFound):
		return err
	}
	waiting, err := h.tx.WaitingAnalysisRequests(ctx, st.ID())
	if err != nil {
		return err
	}
	again := slices.ContainsFunc(waiting, func(r db.AnalysisRequest) bool { return r.Player == h.sender.ID })
	if !again && h.s.analysesPerDay >= 0 {
		n, oldest, err := h.tx.AnalysisRequestsSince(ctx, h.sender.ID, h.now.Add(-analysisDay))
		if err != nil {
			return err
		}
		if n >= h.s.analysesPerDay {
			h.answer(templates.AnalysisRefused{Line: c.Line, GameID: st.ID(), Why: templates.TooManyAnalyses,
				Limit: h.s.analysesPerDay, Until: oldest.Add(analysisDay)})
			h.note(fmt.Sprintf("analyze %d: too many", st.ID()))
			h.refused = true
			return nil
		}
	}
	if !again {
		asker := ""
		if mailmsg.ValidID(h.mail.MessageID) {
			asker = h.mail.MessageID
		}
		_, err := h.tx.AddAnalysisRequest(ctx, db.AnalysisRequest{Game: st.ID(), Player: h.sender.ID, MessageID: asker, Requested: h.now})
		if err != nil {
			return err
		}
	}
	ahead, err := h.tx.AnalysesAhead(ctx, st.ID())
	if err != nil {
		return err
	}
	h.answer(templates.AnalysisQueued{GameID: st.ID(), Ahead: ahead, Again: again})
	h.note(fmt.Sprintf("analyze %d: queued, %d ahead", st.ID(), ahead))
	return nil
}

// analysisMail queues the mail of a's analysis of the game of st to a
// player, in the game's thread, in reply to the mail that asked for it
// (answers, its Message-ID; "" for none) whose References were refs.
func (w *work) analysisMail(ctx context.Context, st *game.State, a *analysis.Analysis, to db.Player, answers string, refs []string) error {
	data := analysisWords(st, a, to.Handle, w.s.address)
	data.Lang = w.lang(to)
	if err := w.subject(ctx, &data.Game, to); err != nil {
		return err
	}
	subject, text, html, err := templates.Analysis(data)
	if err != nil {
		return err
	}
	o := w.mailTo(to, subject, text)
	o.HTML = html
	root := st.Game.ThreadRoot
	switch {
	case mailmsg.ValidID(answers):
		o.InReplyTo, o.References = []string{answers}, refs
	case root != "":
		o.InReplyTo, o.References = []string{root}, []string{root}
	}
	_, err = w.enqueue(ctx, outbox.Mail{Out: o, Game: st.ID()})
	return err
}

// lineAfterBest is how many moves of the engine's line the analysis
// mail shows after the better move.
const lineAfterBest = 5

// analysisWords describes the analysis a of the game of st for a mail
// to the player with handle to, the record's Site being site.
func analysisWords(st *game.State, a *analysis.Analysis, to, site string) templates.AnalysisData {
	d := templates.AnalysisData{Game: gameWords(st), To: to, Nodes: a.Nodes, SVG: a.SVG()}
	pawns := func(hundredths int) string { return fmt.Sprintf("%.2f", float64(hundredths)/100) }
	for i := range a.Plies {
		p := &a.Plies[i]
		m := &templates.AnalysedMove{Move: p.Move.String(), Mark: p.Mark.String(), Eval: p.Eval.String()}
		if p.Side == rules.White {
			m.Label = fmt.Sprintf("%d. %v", p.Number, p.Move)
		} else {
			m.Label = fmt.Sprintf("%d... %v", p.Number, p.Move)
		}
		if p.Mark != analysis.NoMark {
			m.Note, m.Loss, m.BetterEval = p.Note.String(), pawns(p.Loss), p.BestEval.String()
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

// waitingAnalysis is the analysis the oldest request waits for, as read
// before it is made.
type waitingAnalysis struct {
	game  int64
	moves []rules.Move
	err   error // the game's moves cannot be read: the analysis fails
}

// analyseNext makes the analysis the oldest request waits for and mails
// it, in one transaction, to every player waiting for it, marking their
// requests done. It reports whether there was one to make. The analysis
// is made outside any transaction, and gives way to the robot: when a
// mail handled meanwhile gave the robot a turn, it is stopped (to be made
// again from the start, as analysis.Analyze does after a cancel) and
// analyseNext reports true, so that RunRobot plays the turn first.
func (s *Server) analyseNext(ctx context.Context) (bool, error) {
	var next waitingAnalysis
	found := false
	err := s.db.Tx(ctx, func(tx *db.Tx) error {
		r, err := tx.NextAnalysisRequest(ctx)
		if errors.Is(err, db.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		found, next.game = true, r.Game
		moves, err := tx.Moves(ctx, r.Game)
		if err != nil {
			return err
		}
		p := rules.Start()
		for _, m := range moves {
			var eff rules.Effects
			if p, eff, err = p.Play(m.Move); err != nil {
				next.err = fmt.Errorf("move %d %s: %w", m.Ply, m.Move, err)
				return nil
			}
			next.moves = append(next.moves, eff.Move)
		}
		return nil
	})
	if err != nil || !found {
		return false, err
	}
	if next.err != nil {
		return true, s.finishAnalysis(ctx, next.game, nil, 0, next.err)
	}
	s.log.Info("analysis begun", "game", next.game, "plies", len(next.moves), "nodes", s.analysisNodes)
	actx, cancel := context.WithCancel(ctx)
	watched := s.watchRobot(actx, cancel)
	began := s.now()
	a, err := analysis.Analyze(actx, next.moves, analysis.Options{Nodes: s.analysisNodes})
	cancel()
	<-watched
	took := s.now().Sub(began)
	switch {
	case ctx.Err() != nil:
		return false, ctx.Err() // cut short by shutdown: made again after the restart
	case errors.Is(err, context.Canceled):
		s.log.Info("analysis interrupted by a robot turn; made again after it", "game", next.game, "after", took)
		if s.metrics != nil {
			s.metrics.Analysed(Analysed{Game: next.game, Plies: len(next.moves), Duration: took, Interrupted: true})
		}
		return true, nil
	}
	return true, s.finishAnalysis(ctx, next.game, a, took, err)
}

// watchRobot watches, until ctx ends, for the mails that wake the robot
// (Server.wakeRobot), and calls interrupt when one gave the robot a turn.
// The returned channel is closed when it has stopped.
func (s *Server) watchRobot(ctx context.Context, interrupt func()) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.robotWake:
			}
			if s.robotTurnWaits(ctx) {
				interrupt()
				return
			}
		}
	}()
	return done
}

// robotTurnWaits reports whether the robot is to move in a game. An error
// reads as no: the analysis goes on, and the robot's loop finds the turn
// after it.
func (s *Server) robotTurnWaits(ctx context.Context) bool {
	if s.robot == "" {
		return false
	}
	found := false
	err := s.db.Tx(ctx, func(tx *db.Tx) error {
		me, err := tx.PlayerByHandle(ctx, s.robot)
		if err != nil || !s.isRobot(me) {
			return err
		}
		_, found, err = robot.NextTurn(ctx, tx, me, nil, s.log)
		return err
	})
	if err != nil && ctx.Err() == nil {
		s.log.Warn("analysis: could not look for a robot turn", "err", err)
	}
	return found
}

// finishAnalysis stores a, the analysis of a game made in took, and
// mails it to every player whose request waits for it, in their own
// words, marking each request done in the same transaction: a crash
// before the commit leaves the requests waiting, to be made again; after
// it, every mail is in the outbox. With failure set instead (the game's
// moves could not be analysed) each player is told that it failed.
func (s *Server) finishAnalysis(ctx context.Context, gameID int64, a *analysis.Analysis, took time.Duration, failure error) error {
	now := s.now().UTC()
	queued, players := 0, 0
	err := s.db.Tx(ctx, func(tx *db.Tx) error {
		queued, players = 0, 0
		reqs, err := tx.WaitingAnalysisRequests(ctx, gameID)
		if err != nil || len(reqs) == 0 {
			return err
		}
		st, err := game.Load(ctx, tx, gameID, now)
		if err != nil {
			return err
		}
		if a != nil {
			data, err := a.Encode()
			if err != nil {
				return err
			}
			if _, err := tx.SetAnalysis(ctx, db.StoredAnalysis{Game: gameID, Nodes: a.Nodes, Data: data, Created: now}); err != nil {
				return err
			}
		}
		for _, r := range reqs {
			p, err := tx.Player(ctx, r.Player)
			if err != nil {
				return err
			}
			w := s.newWork(tx, now)
			w.cause, w.askedBy = outbox.Player(p.ID), p.Address // the request was proven
			var refs []string
			if st.Game.ThreadRoot != "" {
				refs = append(refs, st.Game.ThreadRoot)
			}
			if r.MessageID != "" && r.MessageID != st.Game.ThreadRoot {
				refs = append(refs, r.MessageID)
			}
			if a != nil {
				err = w.analysisMail(ctx, &st, a, p, r.MessageID, refs)
			} else {
				err = w.analysisFailureMail(ctx, &st, p, r.MessageID, refs)
			}
			if err != nil {
				return err
			}
			if err := tx.FinishAnalysisRequest(ctx, r.ID, now); err != nil {
				return err
			}
			queued += w.queued
			players++
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("analysis of game %d: %w", gameID, err)
	}
	if failure != nil {
		s.log.Error("analysis failed", "game", gameID, "players", players, "err", failure)
	} else {
		s.log.Info("analysis made", "game", gameID, "plies", len(a.Plies), "nodes", a.Nodes, "took", took, "players", players, "queued", queued)
	}
	if s.metrics != nil {
		o := Analysed{Game: gameID, Duration: took, Failed: failure != nil}
		if a != nil {
			o.Plies = len(a.Plies)
		}
		s.metrics.Analysed(o)
	}
	if queued > 0 {
		s.outbox.Wake()
	}
	return nil
}

// analysisFailureMail tells a player that the analysis of the game of st
// could not be made, in reply to the mail that asked.
func (w *work) analysisFailureMail(ctx context.Context, st *game.State, to db.Player, answers string, refs []string) error {
	g := gameWords(st)
	if err := w.subject(ctx, &g, to); err != nil {
		return err
	}
	subject, body, err := templates.AnalysisFailure(w.lang(to), g)
	if err != nil {
		return err
	}
	o := w.mailTo(to, subject, body)
	if mailmsg.ValidID(answers) {
		o.InReplyTo, o.References = []string{answers}, refs
	}
	_, err = w.enqueue(ctx, outbox.Mail{Out: o, Game: st.ID()})
	return err
}
