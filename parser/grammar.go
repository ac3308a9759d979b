package parser

import (
	"fmt"
	"strings"
)

// Kind says which command a line is. The zero value means no command.
type Kind uint8

const (
	NoKind      Kind = iota
	Help             // help
	Register         // register <handle>
	NewKey           // newkey
	Challenge        // challenge congo <handle> [white|black] [days=N|bank=D+I] [rated|unrated] [level=N] [timeout=claim|auto] [position=<R21>]; challenge ladder <t> <handle> is LadderChallenge
	Accept           // accept congo <id>, or accept in a reply about the game
	Decline          // decline congo <id>, or decline in a reply about the game
	Move             // move congo <id> <move> [#N], or <move> [#N] or move <move> in a reply
	Board            // board congo <id>, or board in a reply about the game
	Resign           // resign congo <id>, or a bare resign in a reply
	Games            // games [<handle>]
	Draw             // draw congo <id>: offer a draw, or accept the opponent's offer
	NoDraw           // nodraw congo <id>: decline the opponent's offer
	Takeback         // takeback congo <id>: ask to undo the last move, or grant it
	Abort            // abort congo <id>: end a game before both sides have moved
	Conditional      // conditional congo <id> [clear]: show or clear conditional moves
	If               // if <their move> then <my move>|resign|draw [if ... then ...]: a conditional line (M14, M69)
	Observe          // observe congo <id>
	Unobserve        // unobserve congo <id>
	Seek             // seek congo [days=N|bank=D+I] [rating=LOW-HIGH] [unrated], or seek off
	Notify           // notify each|digest|off
	History          // history congo <id>
	Ratings          // ratings
	Vacation         // vacation <days>, or vacation off
	Rules            // rules: how the pieces move, in plain words (M25)
	Analyze          // analyze congo <id> (or analyse): the robot's analysis of a finished game (M49)
	Language         // language en|ja|cs (or english, japanese, 日本語, czech, čeština, česky): the language of the player's mails (M40)
	Rename           // rename <handle>: a new handle, until the player's first game starts (M56)
	Guard            // guard on|off: the lion guard, which refuses a move that lets the opponent take the mover's lion (M61)

	// Time as players ask for it (M63-M67).
	Pause    // pause congo <id>: ask for a pause, or agree to the opponent's (M63)
	Give     // give congo <id> <N>d|<N>h: more time for the opponent (M65)
	Claim    // claim congo <id>: a win on time in a timeout=claim game (M66)
	Timezone // timezone [<IANA name>]: the player's time zone, or what it is (M64)
	Weekends // weekends pause|play (M64)

	// Playing better by mail (M68-M70).
	Note    // note <text> in a reply about a game, or note congo <id> <text>: a private note (M68)
	Notes   // notes congo <id>: the sender's private notes in a game (M68)
	Preview // preview congo <id> <move> [<move> ...]: the board after the moves, nothing played (M70)

	// Tournaments (M33, M34, M38, M73, M74). Only Tournament's word
	// "tournament" is read as a command word; its next word picks the
	// others. LadderChallenge is Challenge's word before "ladder".
	Tournament       // tournament <t>: its standings
	TournamentNew    // tournament new roundrobin|swiss|ladder|knockout [rounds=N] [games=N] [days=N|bank=D+I] [unrated] [double] <name>
	TournamentStart  // tournament start <t>
	TournamentCancel // tournament cancel <t>
	TournamentKick   // tournament kick <t> <handle>
	TournamentAdd    // tournament <t> add robot [level=N]: the director adds the robot before the start (M60)
	TournamentClose  // tournament close <t>: a ladder's director ends it (M73)
	Tournaments      // tournaments: those open for joining and those running
	Join             // join tournament <t>
	Leave            // leave tournament <t>
	LadderChallenge  // challenge ladder <t> <handle> (M73)

	// The operator's commands, read only in the operator's mail
	// (Context.Operator).
	Ban        // ban <handle>
	Unban      // unban <handle>
	Adjourn    // adjourn [congo] <id>
	Adjudicate // adjudicate [congo] <id> white|black|draw

	// Resume is a player's end of a pause (M63), and the operator's end
	// of an adjournment, the word both use: resume [congo] <id>.
	Resume
)

// lastKind is the last command kind.
const lastKind = Resume

// syntax is how a command is written: its word, and how the words after
// it are read into a Command.
type syntax struct {
	word string
	// also is another spelling of word, read as well; "" for none.
	also string
	// game is set for commands about a game: the word "congo" may follow
	// the command word (move congo 42 b2-b3).
	game bool
	// operator is set for the operator's commands, which are commands
	// only in the operator's mail; admin for a command the operator
	// gives on the machine too (ParseAdmin), as these.
	operator bool
	admin    bool
	// starts, when set, says whether the words after the command word
	// make the line this command: "join" is one only before
	// "tournament", so that "Leave it to me" in a message stays words.
	starts func(args []string) bool
	// form is how the command is written, for errors; empty for the
	// commands that name a game and nothing else ("accept congo <id>").
	form string
	// args reads the words after the command word (and "congo") into c,
	// whose Kind and Line are set: its Game, and its Args, of the type of
	// its kind (args.go); game is the game the mail is about.
	args func(c *Command, args []string, game int64) Error
}

// grammar holds every command's syntax. To add a command: a Kind above,
// its entry here, its type of arguments in args.go if it has any, and its
// entry in the server's table of commands. (It is set in init, as its
// readers refer to it for their errors.)
var grammar [lastKind + 1]syntax

func init() { grammar = syntaxes }

var syntaxes = [...]syntax{
	Help:        {word: "help", args: noArgs},
	Register:    {word: "register", args: registerArgs},
	NewKey:      {word: "newkey", args: noArgs},
	Challenge:   {word: "challenge", game: true, form: "challenge congo <handle> [white|black] [days=N|bank=D+I] [rated|unrated] [level=N] [timeout=claim] [position=<position>]", args: challengeArgs},
	Accept:      {word: "accept", game: true, args: gameArgs},
	Decline:     {word: "decline", game: true, args: gameArgs},
	Move:        {word: "move", game: true, form: "move congo <id> <move>", args: moveArgs},
	Board:       {word: "board", game: true, form: "board congo <id>[#N]", args: boardArgs},
	Resign:      {word: "resign", game: true, args: gameArgs},
	Games:       {word: "games", args: gamesArgs},
	Draw:        {word: "draw", game: true, args: gameArgs},
	NoDraw:      {word: "nodraw", game: true, args: gameArgs},
	Takeback:    {word: "takeback", game: true, args: gameArgs},
	Abort:       {word: "abort", game: true, args: gameArgs},
	Conditional: {word: "conditional", game: true, form: "conditional congo <id> [clear]", args: conditionalArgs},
	If:          {word: "if", args: ifArgs},
	Observe:     {word: "observe", game: true, args: gameArgs},
	Unobserve:   {word: "unobserve", game: true, args: gameArgs},
	Seek:        {word: "seek", game: true, form: "seek congo [days=N|bank=D+I] [rating=LOW-HIGH] [unrated]", args: seekArgs},
	Notify:      {word: "notify", args: notifyArgs},
	History:     {word: "history", game: true, args: gameArgs},
	Ratings:     {word: "ratings", args: noArgs},
	Vacation:    {word: "vacation", args: vacationArgs},
	Rules:       {word: "rules", args: noArgs},
	Analyze:     {word: "analyze", also: "analyse", game: true, args: gameArgs},
	Language:    {word: "language", starts: oneWordAtMost, form: "language en|ja|cs", args: languageArgs},
	Rename:      {word: "rename", starts: oneWordAtMost, form: "rename <handle>", args: renameArgs},
	Pause:       {word: "pause", game: true, starts: gameOnly, args: gameArgs},
	Give:        {word: "give", game: true, starts: giveStarts, form: "give congo <id> <N>d|<N>h", args: giveArgs},
	Claim:       {word: "claim", game: true, starts: gameOnly, args: gameArgs},
	Timezone:    {word: "timezone", starts: oneWordAtMost, form: "timezone <name>", args: timezoneArgs},
	Weekends:    {word: "weekends", starts: oneWordAtMost, form: "weekends pause|play", args: weekendsArgs},
	Guard:       {word: "guard", starts: onOrOff, form: "guard on|off", args: guardArgs},
	Note:        {word: "note", game: true, starts: someWords, form: "note congo <id> <text>", args: noteArgs},
	Notes:       {word: "notes", game: true, starts: gameAtMost, args: gameArgs},
	Preview:     {word: "preview", game: true, starts: previewStarts, form: "preview congo <id> <move> [<move> ...]", args: previewArgs},

	Tournament:       {word: "tournament", starts: tournamentStarts, form: "tournament <number>", args: tournamentArgs},
	TournamentNew:    {word: "tournament new", form: tournamentNewForm, args: tournamentNewArgs},
	TournamentStart:  {word: "tournament start", form: "tournament start <number>", args: tournamentIDArgs},
	TournamentCancel: {word: "tournament cancel", form: "tournament cancel <number>", args: tournamentIDArgs},
	TournamentKick:   {word: "tournament kick", form: "tournament kick <number> <handle>", args: tournamentKickArgs},
	TournamentAdd:    {word: "tournament add", form: "tournament <number> add robot [level=N]", args: tournamentAddArgs},
	TournamentClose:  {word: "tournament close", form: "tournament close <number>", args: tournamentIDArgs},
	Tournaments:      {word: "tournaments", args: noArgs},
	Join:             {word: "join", starts: tournamentWordFirst, form: "join tournament <number>", args: joinArgs},
	Leave:            {word: "leave", starts: tournamentWordFirst, form: "leave tournament <number>", args: joinArgs},
	LadderChallenge:  {word: "challenge ladder", form: "challenge ladder <number> <handle>", args: ladderChallengeArgs},

	Ban:        {word: "ban", operator: true, admin: true, form: "ban <handle>", args: adminHandleArgs},
	Unban:      {word: "unban", operator: true, admin: true, form: "unban <handle>", args: adminHandleArgs},
	Adjourn:    {word: "adjourn", operator: true, admin: true, form: "adjourn congo <id>", args: adminGameArgs},
	Adjudicate: {word: "adjudicate", operator: true, admin: true, form: "adjudicate congo <id> white|black|draw", args: adminGameArgs},
	Resume:     {word: "resume", game: true, admin: true, starts: gameOnly, args: gameArgs},
}

// String returns the command word of k, such as "move", or "none".
func (k Kind) String() string {
	switch {
	case k == NoKind:
		return "none"
	case k.Valid():
		return grammar[k].word
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Valid reports whether k is one of the commands.
func (k Kind) Valid() bool { return Help <= k && k <= lastKind }

// Operator reports whether k is one of the operator's commands.
func (k Kind) Operator() bool { return k.Valid() && grammar[k].operator }

// Admin reports whether the operator gives k on the machine (ParseAdmin):
// the operator's commands, and resume.
func (k Kind) Admin() bool { return k.Valid() && grammar[k].admin }

// keyword returns the command that w names, in any case and either
// spelling, or NoKind. (The words of the tournament commands after the
// first, such as "tournament new", have a space and are no single word.)
func keyword(w string) Kind {
	for k := Help; k <= lastKind; k++ {
		if strings.EqualFold(w, grammar[k].word) || grammar[k].also != "" && strings.EqualFold(w, grammar[k].also) {
			return k
		}
	}
	return NoKind
}

// commandWords returns the command that words begin with, and the words
// after its command word, or NoKind.
func commandWords(words []string) (Kind, []string) {
	k := keyword(words[0])
	if k == NoKind || grammar[k].starts != nil && !grammar[k].starts(words[1:]) {
		return NoKind, words
	}
	return k, words[1:]
}

// isGameCommand reports whether k acts on a game, so that the game word
// may follow it.
func isGameCommand(k Kind) bool { return k.Valid() && grammar[k].game }

// usage returns the form of a command, for errors.
func usage(k Kind) string {
	if k.Valid() && grammar[k].form != "" {
		return grammar[k].form
	}
	return k.String() + " congo <id>"
}
