// Package analyst is the room of the analyses players ask for by mail
// (M49-M51): the command analyze, the queue of requests and its worker,
// which makes each analysis (package analysis) between the robot's
// turns, and the mails that bring it.
package analyst

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/congobymail/congo/analysis"
	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

// day is the window over which a player's requests are counted.
const day = 24 * time.Hour

// Key is what makes two analyze commands of one mail the same: one
// answer a game and mail.
func Key(c parser.Command) string { return fmt.Sprint(c.Game) }

// Analyze answers analyze congo <id> (M49): the stored analysis of the
// game at once, when there is one; otherwise the request is queued for
// the worker (Queue), and the answer says how many analyses are ahead of
// it. A game not finished, or without moves, is refused, and so is a
// player's request past the day's cap (config.Settings.AnalysesPerDay).
// Any finished game may be analyzed, as its moves are no secret; the
// analysis mail goes to the one who asked, and holds none of the
// players' messages.
func Analyze(ctx context.Context, r *command.Request) (command.Result, error) {
	st, err := r.NamedGame(ctx)
	if err != nil {
		return command.Result{}, err
	}
	g := tell.GameWords(&st)
	refuse := func(why templates.AnalysisRefusal) (command.Result, error) {
		res := command.Answer(fmt.Sprintf("analyze %d: %s", st.ID(), why),
			templates.AnalysisRefused{Line: r.Line, GameID: st.ID(), Why: why, Game: &g})
		res.Refused, res.Game = true, st.ID()
		return res, nil
	}
	switch st.Game.Status {
	case db.Active, db.Challenged:
		return refuse(templates.NotFinished)
	case db.Declined:
		return refuse(templates.NoMovesToAnalyze)
	}
	moves, err := r.Tx.Moves(ctx, st.ID())
	if err != nil {
		return command.Result{}, err
	}
	if len(moves) == 0 {
		return refuse(templates.NoMovesToAnalyze)
	}
	res := command.Result{Game: st.ID()}
	stored, err := r.Tx.Analysis(ctx, st.ID())
	switch {
	case err == nil:
		a, err := analysis.Decode(stored.Data)
		if err != nil {
			return command.Result{}, fmt.Errorf("stored analysis of game %d: %w", st.ID(), err)
		}
		res.Notes = []string{fmt.Sprintf("analyze %d: sent as stored", st.ID())}
		return res, mail(ctx, r.Work, &st, a, r.Sender, r.Mail.MessageID, r.Mail.ReplyReferences(st.Game.ThreadRoot))
	case !errors.Is(err, db.ErrNotFound):
		return command.Result{}, err
	}
	waiting, err := r.Tx.WaitingAnalysisRequests(ctx, st.ID())
	if err != nil {
		return command.Result{}, err
	}
	again := slices.ContainsFunc(waiting, func(q db.AnalysisRequest) bool { return q.Player == r.Sender.ID })
	if limit := r.Settings().AnalysesPerDay; !again && limit >= 0 {
		n, oldest, err := r.Tx.CountAnalysisRequestsSince(ctx, r.Sender.ID, r.Now.Add(-day))
		if err != nil {
			return command.Result{}, err
		}
		if n >= limit {
			res.Answers = []templates.Section{templates.AnalysisRefused{Line: r.Line, GameID: st.ID(), Why: templates.TooManyAnalyses,
				Limit: limit, Until: oldest.Add(day)}}
			res.Notes, res.Refused = []string{fmt.Sprintf("analyze %d: too many", st.ID())}, true
			return res, nil
		}
	}
	if !again {
		asker := ""
		if mailmsg.ValidID(r.Mail.MessageID) {
			asker = r.Mail.MessageID
		}
		_, err := r.Tx.AddAnalysisRequest(ctx, db.AnalysisRequest{Game: st.ID(), Player: r.Sender.ID, MessageID: asker, Requested: r.Now})
		if err != nil {
			return command.Result{}, err
		}
	}
	ahead, err := r.Tx.CountAnalysesAhead(ctx, st.ID())
	if err != nil {
		return command.Result{}, err
	}
	res.Answers = []templates.Section{templates.AnalysisQueued{GameID: st.ID(), Ahead: ahead, Again: again}}
	res.Notes = []string{fmt.Sprintf("analyze %d: queued, %d ahead", st.ID(), ahead)}
	return res, nil
}
