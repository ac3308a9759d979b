package game

import (
	"fmt"
	"testing"
	"time"
)

func TestReminderPoints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		turn, final time.Duration
		want        []time.Duration
	}{
		{3 * Day, Day, []time.Duration{36 * time.Hour, Day}},
		{2 * Day, Day, []time.Duration{Day}},
		{Day, Day, nil},
		{10 * Day, -1, []time.Duration{5 * Day}},
	}
	for _, tt := range tests {
		got := reminderPoints(tt.turn, tt.final)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("reminderPoints(%v, %v) = %v, want %v", tt.turn, tt.final, got, tt.want)
		}
	}
}
