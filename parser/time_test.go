package parser

import (
	"fmt"
	"testing"
)

// TestParseTime: the commands of time as players ask for it (M63-M67),
// as MAIL.md writes them, in a mail about game 7 (where they may name
// no game) and about none.
func TestParseTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		game int64 // Context.Game
		want Command
		err  Problem
	}{
		{"pause congo 42", 0, Command{Kind: Pause, Game: 42}, NoProblem},
		{"pause", 7, Command{Kind: Pause, Game: 7}, NoProblem},
		{"congo pause 42", 0, Command{Kind: Pause, Game: 42}, NoProblem},
		{"pause", 0, Command{}, MissingGame},
		{"resume congo 42", 0, Command{Kind: Resume, Game: 42}, NoProblem},
		{"resume", 7, Command{Kind: Resume, Game: 7}, NoProblem},
		{"claim congo 42", 0, Command{Kind: Claim, Game: 42}, NoProblem},
		{"claim", 7, Command{Kind: Claim, Game: 7}, NoProblem},
		{"give congo 42 2d", 0, Command{Kind: Give, Game: 42, Args: GiveArgs{Hours: 48}}, NoProblem},
		{"give congo 42 12h", 0, Command{Kind: Give, Game: 42, Args: GiveArgs{Hours: 12}}, NoProblem},
		{"give 42 3D", 0, Command{Kind: Give, Game: 42, Args: GiveArgs{Hours: 72}}, NoProblem},
		{"give 2d", 7, Command{Kind: Give, Game: 7, Args: GiveArgs{Hours: 48}}, NoProblem},
		{"give 2d", 0, Command{}, MissingGame},
		{"give congo 42", 0, Command{}, BadAmount},
		{"give congo 42 2w", 0, Command{}, BadAmount},
		{"give congo 42 31d", 0, Command{}, BadAmount},
		{"give congo 42 0h", 0, Command{}, BadAmount},
		{"give congo 42 2d please", 0, Command{}, ExtraWords},
		{"timezone Europe/Prague", 0, Command{Kind: Timezone, Args: TimezoneArgs{Zone: "Europe/Prague"}}, NoProblem},
		{"timezone", 0, Command{Kind: Timezone, Args: TimezoneArgs{}}, NoProblem},
		{"weekends pause", 0, Command{Kind: Weekends, Args: WeekendsArgs{Pause: true}}, NoProblem},
		{"weekends play", 0, Command{Kind: Weekends, Args: WeekendsArgs{}}, NoProblem},
		{"weekends off", 0, Command{}, BadSetting},
		{"challenge congo bob timeout=claim", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob", TimeoutClaim: true}}, NoProblem},
		{"challenge congo bob days=5 timeout=auto black", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob", Color: 1, Control: TimeControl{Days: 5}}}, NoProblem},
		{"challenge congo bob timeout=never", 0, Command{}, BadTimeControl},
		{"challenge congo bob timeout=claim timeout=auto", 0, Command{}, ExtraWords},
		{"seek congo timeout=claim", 0, Command{}, BadTimeControl},
		{"tournament new swiss pauses novacation Spring Cup", 0, Command{Kind: TournamentNew,
			Args: TournamentNewArgs{System: Swiss, Pauses: true, NoVacation: true, Name: "Spring Cup"}}, NoProblem},
	}
	for _, tt := range tests {
		r := Parse("", tt.line, Context{Game: tt.game})
		call := fmt.Sprintf("Parse(%q, game %d)", tt.line, tt.game)
		if tt.err != NoProblem {
			if len(r.Errors) != 1 || r.Errors[0].Problem != tt.err || len(r.Commands) != 0 {
				t.Errorf("%s = %+v, want one error %v", call, r, tt.err)
			}
			continue
		}
		tt.want.Line = tt.line
		if len(r.Commands) != 1 || len(r.Errors) != 0 {
			t.Errorf("%s = %+v, want %+v", call, r, tt.want)
			continue
		}
		if got := r.Commands[0]; fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", tt.want) {
			t.Errorf("%s = %+v, want %+v", call, got, tt.want)
		}
	}
}

// TestTimeWordsInMessages: the words of the time commands begin a line
// of a message without making it a command, unless what follows is a
// game or an amount of time (M19).
func TestTimeWordsInMessages(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"Pause for thought.", "Give me a day or two.", "Claim your prize!",
		"Resume tomorrow, maybe", "Weekends are for family", "Timezone chaos here"} {
		r := Parse("", "b2-b3\n"+line, Context{Game: 7})
		if len(r.Commands) != 1 || len(r.Errors) != 0 || r.Message != line {
			t.Errorf("Parse(%q) = %+v, want the move and the line as the message", line, r)
		}
	}
}

// TestParseAdminResume: the operator gives resume on the machine too.
func TestParseAdminResume(t *testing.T) {
	t.Parallel()
	c, e, ok := ParseAdmin("resume congo 42")
	if !ok || e.Problem != NoProblem || c.Kind != Resume || c.Game != 42 {
		t.Errorf("ParseAdmin(resume congo 42) = %+v, %+v, %v", c, e, ok)
	}
	if _, _, ok := ParseAdmin("pause congo 42"); ok {
		t.Errorf("ParseAdmin(pause congo 42) ok, want no operator's command")
	}
}
