package templates

import "github.com/congobymail/congo/rules"

// The lion guard (M61): a move that lets the opponent take the mover's
// lion at once is not played (Problem LionExposed), and a board mail to
// the player to move says when their lion is attacked.

// GuardSet answers guard on|off.
type GuardSet struct {
	On bool
}

func (GuardSet) template() string { return "guard_set" }

// LionAttack is a capture of the lion of the player to move that the
// opponent, By, could make with their next move if nothing changes: the
// move Capture, as R20 writes it.
type LionAttack struct {
	By      string
	Capture string
}

// LionAttackOn is the capture by which the opponent, by, could take the
// lion of the side to move in pos with their next move (rules.LionAttack),
// or nil when the lion is not attacked.
func LionAttackOn(pos rules.Position, by string) *LionAttack {
	m, ok := pos.LionAttack()
	if !ok {
		return nil
	}
	return &LionAttack{By: by, Capture: m.String()}
}
