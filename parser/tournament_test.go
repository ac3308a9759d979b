package parser

import (
	"testing"
)

// TestParseTournament reads the tournament commands of M33, M34 and M38
// as people write them, and their errors.
func TestParseTournament(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want Command // Line is the line
		err  Problem
	}{
		{line: "tournament new swiss Spring Cup", want: Command{Kind: TournamentNew, Args: TournamentNewArgs{System: Swiss, Name: "Spring Cup"}}},
		{line: "Tournament New RoundRobin double days=5 unrated The  Autumn   Open",
			want: Command{Kind: TournamentNew, Args: TournamentNewArgs{System: RoundRobin, Double: true, Control: TimeControl{Days: 5}, Unrated: true, Name: "The Autumn Open"}}},
		{line: "tournament new swiss rounds=3 bank=10+1 Café Congo 2027",
			want: Command{Kind: TournamentNew, Args: TournamentNewArgs{System: Swiss, Rounds: 3, Control: TimeControl{Bank: true, Days: 10, Increment: 1}, Name: "Café Congo 2027"}}},
		// After the name begins, its words are the name.
		{line: "tournament new swiss Cup unrated", want: Command{Kind: TournamentNew, Args: TournamentNewArgs{System: Swiss, Name: "Cup unrated"}}},
		{line: "congo tournament new round-robin Club", want: Command{Kind: TournamentNew, Args: TournamentNewArgs{System: RoundRobin, Name: "Club"}}},
		{line: "tournament start 3", want: Command{Kind: TournamentStart, Args: TournamentArgs{Tournament: 3}}},
		{line: "tournament cancel #3", want: Command{Kind: TournamentCancel, Args: TournamentArgs{Tournament: 3}}},
		{line: "tournament kick 3 bob", want: Command{Kind: TournamentKick, Args: KickArgs{Tournament: 3, Handle: "bob"}}},
		{line: "tournament 3", want: Command{Kind: Tournament, Args: TournamentArgs{Tournament: 3}}},
		{line: "tournaments", want: Command{Kind: Tournaments}},
		{line: "join tournament 3", want: Command{Kind: Join, Args: TournamentArgs{Tournament: 3}}},
		{line: "Leave Tournament 12", want: Command{Kind: Leave, Args: TournamentArgs{Tournament: 12}}},
		// M60: the robot added by the director, in either order.
		{line: "tournament 3 add robot", want: Command{Kind: TournamentAdd, Args: TournamentAddArgs{Tournament: 3, Handle: "robot"}}},
		{line: "tournament 3 add robot level=5", want: Command{Kind: TournamentAdd, Args: TournamentAddArgs{Tournament: 3, Handle: "robot", Level: 5}}},
		{line: "Tournament add #3 Robot LEVEL=1", want: Command{Kind: TournamentAdd, Args: TournamentAddArgs{Tournament: 3, Handle: "Robot", Level: 1}}},

		{line: "tournament new ladder days=5 Club Ladder", want: Command{Kind: TournamentNew, Args: TournamentNewArgs{System: Ladder, Control: TimeControl{Days: 5}, Name: "Club Ladder"}}},
		{line: "tournament new Knockout games=3 unrated Cup", want: Command{Kind: TournamentNew, Args: TournamentNewArgs{System: Knockout, Games: 3, Unrated: true, Name: "Cup"}}},
		{line: "tournament new knockout Cup", want: Command{Kind: TournamentNew, Args: TournamentNewArgs{System: Knockout, Name: "Cup"}}},
		{line: "tournament close 4", want: Command{Kind: TournamentClose, Args: TournamentArgs{Tournament: 4}}},
		{line: "challenge ladder 4 bob", want: Command{Kind: LadderChallenge, Args: LadderChallengeArgs{Tournament: 4, Handle: "bob"}}},
		{line: "Challenge Ladder #4 bob", want: Command{Kind: LadderChallenge, Args: LadderChallengeArgs{Tournament: 4, Handle: "bob"}}},
		// A player named ladder is challenged as any other.
		{line: "challenge ladder days=5", want: Command{Kind: Challenge, Args: ChallengeArgs{Handle: "ladder", Control: TimeControl{Days: 5}}}},

		{line: "tournament new", err: BadTournament},
		{line: "tournament new arena Cup", err: BadTournament},
		{line: "tournament new ladder rounds=3 Club", err: BadTournament},
		{line: "tournament new ladder games=3 Club", err: BadTournament},
		{line: "tournament new knockout double Cup", err: BadTournament},
		{line: "tournament new swiss games=2 Cup", err: BadTournament},
		{line: "tournament new knockout games=0 Cup", err: BadTournament},
		{line: "tournament new knockout games=11 Cup", err: BadTournament},
		{line: "tournament new knockout games=2 games=3 Cup", err: ExtraWords},
		{line: "tournament close", err: MissingTournament},
		{line: "challenge ladder 4", err: MissingHandle},
		{line: "challenge ladder 4 bob white", err: ExtraWords},
		{line: "challenge ladder 4 b@b", err: BadHandle},
		{line: "tournament new swiss", err: BadTournament},
		{line: "tournament new swiss unrated", err: BadTournament},
		{line: "tournament new swiss double Cup", err: BadTournament},
		{line: "tournament new roundrobin rounds=3 Cup", err: BadTournament},
		{line: "tournament new swiss rounds=0 Cup", err: BadTournament},
		{line: "tournament new swiss rounds=21 Cup", err: BadTournament},
		{line: "tournament new swiss days=99 Cup", err: BadTimeControl},
		{line: "tournament new swiss unrated unrated Cup", err: ExtraWords},
		{line: "tournament new swiss The Cup of alice@example.org", err: BadTournament},
		{line: "tournament new swiss A name far longer than any tournament needs, surely", err: BadTournament},
		{line: "tournament", err: MissingTournament},
		{line: "tournament start", err: MissingTournament},
		{line: "tournament start spring", err: BadTournament},
		{line: "tournament start 3 now", err: ExtraWords},
		{line: "tournament kick 3", err: MissingHandle},
		{line: "tournament kick 3 b@d", err: BadHandle},
		{line: "join tournament", err: MissingTournament},
		{line: "join tournament x1", err: BadTournament},
		{line: "tournaments please", err: ExtraWords},
		{line: "tournament 3 add", err: MissingHandle},
		{line: "tournament 3 add robot level=6", err: BadLevel},
		{line: "tournament 3 add robot level=3 now", err: MissingHandle},
		{line: "tournament add robot", err: BadTournament},
	}
	for _, tt := range tests {
		got := Parse("", tt.line, Context{})
		if tt.err != NoProblem {
			if len(got.Errors) != 1 || got.Errors[0].Problem != tt.err || got.Errors[0].Reason == "" || len(got.Commands) != 0 {
				t.Errorf("Parse(%q) = %+v, want one error %s", tt.line, got, tt.err)
			}
			continue
		}
		tt.want.Line = tt.line
		checkResult(t, "Parse("+tt.line+")", got, Result{Commands: []Command{tt.want}})
	}
}

// TestParseSeekRange reads seeks with a range of ratings (M75).
func TestParseSeekRange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want SeekArgs
		err  Problem
	}{
		{line: "seek congo rating=1400-1700", want: SeekArgs{RatingLow: 1400, RatingHigh: 1700}},
		{line: "seek congo days=5 Rating=0-1500 unrated", want: SeekArgs{Control: TimeControl{Days: 5}, Unrated: true, RatingHigh: 1500}},
		{line: "seek rating=1500-1500", want: SeekArgs{RatingLow: 1500, RatingHigh: 1500}},
		{line: "seek congo rating=1700-1400", err: BadSetting},
		{line: "seek congo rating=1400", err: BadSetting},
		{line: "seek congo rating=-1700", err: BadSetting},
		{line: "seek congo rating=0-0", err: BadSetting},
		{line: "seek congo rating=1000-5000", err: BadSetting},
		{line: "seek congo rating=1000-1200 rating=1100-1300", err: ExtraWords},
		{line: "challenge congo bob rating=1000-1200", err: BadTimeControl},
	}
	for _, tt := range tests {
		got := Parse("", tt.line, Context{})
		if tt.err != NoProblem {
			if len(got.Errors) != 1 || got.Errors[0].Problem != tt.err || len(got.Commands) != 0 {
				t.Errorf("Parse(%q) = %+v, want one error %s", tt.line, got, tt.err)
			}
			continue
		}
		checkResult(t, "Parse("+tt.line+")", got, Result{Commands: []Command{{Kind: Seek, Line: tt.line, Args: tt.want}}})
	}
}

// TestTournamentWordsInAMessage: in a mail about a game, lines that begin
// with join, leave or tournament but are no tournament command are the
// message to the opponent (M19).
func TestTournamentWordsInAMessage(t *testing.T) {
	t.Parallel()
	body := "b2-b3\nLeave your lion where it is!\nJoin me for a rematch?\nTournament games suit me.\n"
	got := Parse("Re: Congo game 42: alice vs bob", body, Context{Game: 42})
	want := Result{
		Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		Message:  "Leave your lion where it is!\nJoin me for a rematch?\nTournament games suit me.",
	}
	checkResult(t, "Parse", got, want)
}
