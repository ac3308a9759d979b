package db

import "context"

// A finisher is work a transaction does once its function has returned
// nil, just before it commits (BeforeCommit).
type finisher struct {
	seq int // its place among the transaction's finishers, from 0
	f   func(ctx context.Context) error
}

// finishState is a transaction's finishers: those to run, and those run
// early (Finish) inside the savepoints open now, which run again should
// the savepoint fail.
type finishState struct {
	pending []finisher
	next    int        // the seq of the next finisher given
	ran     []finisher // run by Finish inside an open savepoint, in order
	depth   int        // savepoints open
}

// BeforeCommit has f run in t once the function that DB.Tx (or TxNoSync)
// runs has returned nil, just before the commit, after every f given
// before it: an error from f rolls the whole transaction back. f may use
// t. A Savepoint whose function fails forgets the fs given inside it, as
// it undoes the rest of its work.
//
// f may run more than once, and must do the same each time: when Finish
// ran it inside a Savepoint that then fails, its work is undone with the
// savepoint's, and it runs again later.
//
// It lets work be started in t and ended later, apart from the work that
// must be done in order: the outbox composes mail in other goroutines
// while the transaction goes on, and writes each into t here.
func (t *Tx) BeforeCommit(f func(ctx context.Context) error) {
	t.fin.pending = append(t.fin.pending, finisher{seq: t.fin.next, f: f})
	t.fin.next++
}

// Finishing is how many fs given to BeforeCommit are still to run.
func (t *Tx) Finishing() int { return len(t.fin.pending) }

// Finish runs now, in order, the fs given to BeforeCommit, instead of
// before the commit: so that their work is bounded (the outbox writes the
// mail composed so far, rather than hold a round's hundreds of mails in
// memory).
func (t *Tx) Finish(ctx context.Context) error {
	for len(t.fin.pending) > 0 {
		f := t.fin.pending[0]
		t.fin.pending = t.fin.pending[1:]
		if t.fin.depth > 0 {
			t.fin.ran = append(t.fin.ran, f)
		}
		if err := f.f(ctx); err != nil {
			return err
		}
	}
	t.fin.pending = nil
	return nil
}

// A finishMark is where a savepoint began, in a transaction's finishers.
type finishMark struct{ seq, ran int }

// enterSavepoint notes a savepoint opened.
func (s *finishState) enterSavepoint() finishMark {
	s.depth++
	return finishMark{seq: s.next, ran: len(s.ran)}
}

// leaveSavepoint notes the savepoint begun at m closed: released (its
// finishers kept), or rolled back, which forgets the finishers given
// since m and puts back, to run again, those given before m and run
// since.
func (s *finishState) leaveSavepoint(m finishMark, rolledBack bool) {
	s.depth--
	if rolledBack {
		i := len(s.pending)
		for i > 0 && s.pending[i-1].seq >= m.seq {
			i--
		}
		var again []finisher
		for _, f := range s.ran[m.ran:] {
			if f.seq < m.seq {
				again = append(again, f)
			}
		}
		s.pending = append(again, s.pending[:i]...)
		s.ran = s.ran[:m.ran]
	}
	if s.depth == 0 {
		s.ran = nil
	}
}
