package main

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestRunStagesStopsInOrder: each stage is asked to stop only once every
// loop of the stages before has returned.
func TestRunStagesStopsInOrder(t *testing.T) {
	var mu sync.Mutex
	var got []string
	record := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, s)
	}
	// finishing waits for ctx, then takes a while to finish its work.
	finishing := func(name string, d time.Duration) loop {
		return loop{name, func(ctx context.Context) error {
			<-ctx.Done()
			record(name + " asked")
			time.Sleep(d)
			record(name + " done")
			return ctx.Err()
		}}
	}
	stages := [][]loop{
		{finishing("imap", 50*time.Millisecond)},
		{finishing("outbox", 20*time.Millisecond)},
		{finishing("clock", 0), finishing("robot", 10*time.Millisecond)},
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runStages(ctx, stages, 5*time.Second, slog.New(slog.DiscardHandler)) }()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("runStages = %v", err)
	}
	pos := func(s string) int { return slices.Index(got, s) }
	for _, before := range []struct{ done, asked string }{
		{"imap done", "outbox asked"},
		{"outbox done", "clock asked"},
		{"outbox done", "robot asked"},
	} {
		if pos(before.done) < 0 || pos(before.asked) < 0 || pos(before.done) > pos(before.asked) {
			t.Errorf("%q should come before %q: %q", before.done, before.asked, got)
		}
	}
	if len(got) != 8 {
		t.Errorf("events %q, want every loop asked and done", got)
	}
}

// TestRunStagesDeadline: a loop that does not stop makes runStages give up
// after the grace, with errLoopsRunning, having asked every stage to stop.
func TestRunStagesDeadline(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck)
	asked := make(chan struct{})
	stages := [][]loop{
		{{"imap", func(ctx context.Context) error { <-stuck; return nil }}},
		{{"outbox", func(ctx context.Context) error { <-ctx.Done(); close(asked); return ctx.Err() }}},
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	err := runStages(ctx, stages, 100*time.Millisecond, slog.New(slog.DiscardHandler))
	if !errors.Is(err, errLoopsRunning) {
		t.Errorf("runStages = %v, want errLoopsRunning", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("runStages took %v with a grace of 100ms", took)
	}
	select {
	case <-asked:
	case <-time.After(2 * time.Second):
		t.Error("the later stage was never asked to stop")
	}
}

// TestRunStagesLoopFails: a loop that fails stops them all, and its error
// is returned.
func TestRunStagesLoopFails(t *testing.T) {
	boom := errors.New("boom")
	stages := [][]loop{
		{{"imap", func(ctx context.Context) error { return boom }}},
		{{"outbox", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }}},
	}
	err := runStages(context.Background(), stages, time.Second, slog.New(slog.DiscardHandler))
	if !errors.Is(err, boom) {
		t.Errorf("runStages = %v, want the loop's error", err)
	}
}
