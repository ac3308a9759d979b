package robot

import (
	"context"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
)

// AnswerDraw answers a draw offer to the robot, me, in st at once:
// accepted when the robot's last search found its position clearly lost,
// or when a position of the game has occurred three times and the robot
// is not ahead (AcceptsDraw); declined otherwise.
func AnswerDraw(ctx context.Context, tx *db.Tx, st *game.State, me db.Player) ([]game.Event, error) {
	scores, err := tx.RobotScores(ctx, st.ID())
	if err != nil {
		return nil, err
	}
	before, err := GameHistory(ctx, tx, st.Game)
	if err != nil {
		return nil, err
	}
	if AcceptsDraw(st.Pos, before, scores) {
		return game.AgreeDraw(ctx, tx, st, me)
	}
	return game.DeclineDraw(ctx, tx, st, me)
}
