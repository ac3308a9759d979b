package account

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mtibben/confusables"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// skeletons are the forms a handle is compared in (M56): its confusable
// skeleton (Unicode TR39) after NFKC and case folding, taken of the
// lower case and of the upper case, so that aIice (a capital I) and
// ALlCE both look like alice, and rnary like mary. (The skeleton's table,
// github.com/mtibben/confusables, is Unicode 13's; handles are ASCII
// letters, digits, - and _, whose confusables have not changed since.)
func skeletons(h string) [2]string {
	n := norm.NFKC.String(h)
	fold := cases.Fold()
	lower := fold.String(confusables.Skeleton(fold.String(n)))
	upper := fold.String(confusables.Skeleton(strings.ToUpper(n)))
	return [2]string{lower, upper}
}

// Resembles reports whether two handles look alike (M56): the same in
// either of their skeletons.
func Resembles(a, b string) bool {
	sa, sb := skeletons(a), skeletons(b)
	return sa[0] == sb[0] || sa[1] == sb[1]
}

// lookalike returns the handle of another player than except that handle
// looks like, "" when there is none. It reads every handle: registering
// and renaming are rare.
func lookalike(ctx context.Context, tx *db.Tx, handle string, except int64) (string, error) {
	handles, err := tx.Handles(ctx)
	if err != nil {
		return "", err
	}
	var alike []string
	for id, h := range handles {
		if id != except && Resembles(handle, h) {
			alike = append(alike, h)
		}
	}
	if len(alike) == 0 {
		return "", nil
	}
	sort.Strings(alike)
	return alike[0], nil
}

// provisionalHold is how long a registration never confirmed holds its
// handle (M56): after it, a register or a rename asking for that handle,
// or one like it, takes it, and the provisional registration is deleted,
// so that forged registrations cannot squat handles.
const provisionalHold = 24 * time.Hour

// release deletes the provisional registrations older than
// provisionalHold (but except's) whose handle is handle or looks like it.
func release(ctx context.Context, r *command.Request, handle string, except int64) error {
	handles, err := r.Tx.Handles(ctx)
	if err != nil {
		return err
	}
	for id, h := range handles {
		if id == except || !strings.EqualFold(h, handle) && !Resembles(h, handle) {
			continue
		}
		deleted, err := r.Tx.DeleteProvisional(ctx, id, r.Now.Add(-provisionalHold))
		if err != nil {
			return err
		}
		if deleted {
			r.Log().Info("provisional registration released", "handle", h, "for", handle)
		}
	}
	return nil
}

// started reports whether a player's first game has begun: a handle may
// change until then.
func started(ctx context.Context, tx *db.Tx, player int64) (bool, error) {
	games, err := tx.GamesOf(ctx, player)
	if err != nil {
		return false, err
	}
	for _, g := range games {
		if g.Status == db.Active || g.Status == db.Finished {
			return true, nil
		}
	}
	return false, nil
}

// Rename gives the sender a new handle (M56), until their first game
// begins: one valid, no other player's in any case, and like no other
// player's.
func Rename(ctx context.Context, r *command.Request, a parser.RenameArgs) (command.Result, error) {
	old := r.Sender.Handle
	if begun, err := started(ctx, r.Tx, r.Sender.ID); err != nil || begun {
		if err != nil {
			return command.Result{}, err
		}
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.RenameTooLate, Handle: old})
	}
	if err := release(ctx, r, a.Handle, r.Sender.ID); err != nil {
		return command.Result{}, err
	}
	like, err := lookalike(ctx, r.Tx, a.Handle, r.Sender.ID)
	if err != nil {
		return command.Result{}, err
	}
	if like != "" && !strings.EqualFold(like, a.Handle) { // the same in any case is taken
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.HandleLooksLike, Handle: a.Handle, Detail: like})
	}
	err = r.Tx.SetHandle(ctx, r.Sender.ID, a.Handle)
	if errors.Is(err, db.ErrHandleTaken) {
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.HandleTaken, Handle: a.Handle, Detail: "rename"})
	}
	if err != nil {
		return command.Result{}, err
	}
	p := r.Sender
	p.Handle = a.Handle
	res := command.Answer(fmt.Sprintf("rename %s: %s", old, a.Handle), templates.Renamed{Old: old, New: a.Handle})
	res.Sender = &p
	return res, nil
}
