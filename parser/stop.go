package parser

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lineClass is how a body line is read.
type lineClass uint8

const (
	textLine lineClass = iota // a command, or else an error or a line of the message
	skipLine                  // blank, or only punctuation: no command
	stopLine                  // the end of what the sender wrote: nothing after it is read
)

// classify says how a body line is read. line is trimmed and normalised
// (normalise); afterBlank is whether the line before was skipped (or
// there is none); rest is the body after the line, to look one line
// ahead for an attribution split over two lines or a header block.
func classify(line string, afterBlank bool, rest string) lineClass {
	switch {
	case line == "":
		return skipLine
	case line[0] == '>', // a quoted line
		line == "--",      // a signature, "-- " trimmed
		isSeparator(line), // "-----Original Message-----"
		afterBlank && isHeader(line, rest),
		isSignOff(line),
		isAttribution(line, rest),
		isOwnLine(line):
		return stopLine
	case isPunctuation(line):
		return skipLine
	}
	return textLine
}

// isSeparator reports whether line is a separator written by a mail
// program before an old mail, such as "-----Original Message-----",
// "---------- Forwarded message ---------" or Seznam's "----------
// Původní e-mail ----------".
func isSeparator(line string) bool {
	if len(line) < 7 || !strings.HasPrefix(line, "---") || !strings.HasSuffix(line, "---") {
		return false
	}
	return strings.IndexFunc(line, unicode.IsLetter) >= 0
}

// headerWords are the first words of the header blocks that mail
// programs write above an old mail, in other languages than English,
// German and French: Italian, Dutch, Swedish, Norwegian and Danish,
// Czech and Polish, Finnish, and Japanese (Outlook's "差出人", Apple
// Mail's and others' "送信者"). Spanish and Portuguese write "De", as
// French does.
var headerWords = [...]string{"Da", "Van", "Från", "Fra", "Od", "Lähettäjä", "差出人", "送信者"}

// isHeader reports whether line, which follows a blank line, starts the
// header block a mail program writes above an old mail ("From: Alice
// ...", "Von:", "De:", "Da:", "Van:", "Från:", "Fra:", "Od:",
// "Lähettäjä:", "差出人:", "送信者:"; also with a space before the colon,
// and with a full-width colon, which NFKC makes ":"). As the shorter of
// these words may start a sentence, a line that starts with one of them
// must name an address ("<", "@", "[") or be followed by another header
// ("Sent:", "Odesláno:", "送信日時:", ...).
func isHeader(line, rest string) bool {
	if hasPrefixFold(line, "From:") || hasPrefixFold(line, "Von:") ||
		hasPrefixFold(line, "De:") || hasPrefixFold(line, "De :") {
		return true
	}
	for _, w := range headerWords {
		if hasPrefixFold(line, w+":") || hasPrefixFold(line, w+" :") {
			next, _ := nextLine(rest)
			return strings.ContainsAny(line, "<@[") || isHeaderLine(normalise(strings.TrimFunc(next, isSpace)))
		}
	}
	return false
}

// isHeaderLine reports whether line looks like a header of a quoted
// header block: a name of at most 3 words of letters, then a colon.
func isHeaderLine(line string) bool {
	name, _, ok := strings.Cut(line, ":")
	name = strings.TrimRight(name, " ")
	if !ok || name == "" || utf8.RuneCountInString(name) > 24 || strings.Count(name, " ") > 2 {
		return false
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && r != ' ' && r != '-' {
			return false
		}
	}
	return true
}

// isSignOff reports whether line is a mail program's sign-off, such as
// "Sent from my iPhone", Czech "Odesláno z iPhonu" or Japanese
// "iPhoneから送信".
func isSignOff(line string) bool {
	return hasPrefixFold(line, "Sent from ") || hasPrefixFold(line, "Get Outlook for ") ||
		hasPrefixFold(line, "Envoyé de mon ") || hasPrefixFold(line, "Von meinem ") ||
		hasPrefixFold(line, "Odesláno z ") ||
		strings.HasSuffix(line, "から送信") && utf8.RuneCountInString(line) <= 30
}

// attributionEnds are the ends of attribution lines that no chat line
// ends with, in Czech and Polish ("Dne 1. 3. 2025 12:00 Alice
// napsal(a):"), Japanese (Thunderbird's and Outlook's "...のメッセージ:",
// "... は書きました:", Apple Mail's "...のメール:") and Chinese; as they
// are after NFKC (a full-width colon is ":").
var attributionEnds = [...]string{" wrote:", "napsal(a):", "napisał(a):", "のメッセージ:", "は書きました:", "のメール:", "写道:", "寫道:"}

// endsAttribution reports whether line ends as an attribution does
// whatever its start: with one of attributionEnds, or with Czech and
// Polish "napsal:", "napsala:", "napisał:" after an address (Gmail's
// Czech "so 1. 3. 2025 v 12:00 odesílatel Alice <alice@example.org>
// napsal:").
func endsAttribution(line string) bool {
	for _, end := range attributionEnds {
		if strings.HasSuffix(line, end) {
			return true
		}
	}
	for _, end := range [...]string{" napsal:", " napsala:", " napisał:", " napisała:"} {
		if strings.HasSuffix(line, end) && strings.ContainsAny(line, "<@") {
			return true
		}
	}
	return false
}

// isAttribution reports whether line introduces a quoted mail: "On <date>,
// <someone> wrote:", "Le ... a écrit :", "Am ... schrieb ...:", "Dne ...
// napsal(a):", Gmail's Japanese "2025年3月1日(土) 12:00 Alice
// <alice@example.org>:" and their like, also when split over this line
// and the next.
func isAttribution(line, rest string) bool {
	if endsAttribution(line) {
		return true
	}
	next := func() string {
		n, _ := nextLine(rest)
		return normalise(strings.TrimFunc(n, isSpace))
	}
	// Split after the "<" of an address: "... Alice <" and
	// "alice@example.org> napsal:".
	if (strings.HasSuffix(line, "<") || strings.Contains(line, "@")) && endsAttribution(next()) {
		return true
	}
	if startsWithCJKDate(line) {
		if strings.HasSuffix(line, ":") {
			return true
		}
		n := next()
		return strings.HasSuffix(n, ">:") || strings.HasSuffix(n, ":") && strings.ContainsAny(line+n, "<@")
	}
	verb := attributionVerb(line)
	if verb == "" {
		return false
	}
	if strings.HasSuffix(line, ":") {
		return strings.Contains(line, verb)
	}
	n := next()
	return strings.HasSuffix(n, ":") && (strings.Contains(line, verb) || strings.Contains(n, verb))
}

// attributionVerb returns the verb of an attribution that starts with the
// first word of line ("wrote" for "On"), or "" when it starts none.
func attributionVerb(line string) string {
	i := strings.IndexByte(line, ' ')
	if i < 2 || i > 3 {
		return ""
	}
	switch strings.ToLower(line[:i]) {
	case "on":
		return "wrote"
	case "le":
		return "écrit"
	case "am":
		return "schrieb"
	case "el":
		return "escribió"
	case "il":
		return "scritto"
	case "op":
		return "schreef"
	case "em":
		return "escreveu"
	case "den":
		return "skrev"
	case "dne":
		return "napsal" // also "napsala", "napsal(a)"
	}
	return ""
}

// startsWithCJKDate reports whether line starts with a date as Japanese
// and Chinese mail programs write it, "2025年3月1日" (after NFKC, so also
// with full-width digits).
func startsWithCJKDate(line string) bool {
	for _, unit := range [...]string{"年", "月", "日"} {
		n := 0
		for n < len(line) && '0' <= line[n] && line[n] <= '9' {
			n++
		}
		if n == 0 || n > 4 || !strings.HasPrefix(line[n:], unit) {
			return false
		}
		line = line[n+len(unit):]
	}
	return true
}

// ownPrefixes start fixed lines of the server's own mails (templates/),
// in each of their languages (templates/lang: Japanese, then Czech): a
// board's "Position:" line (M3), the footer, and the first lines of a
// digest, of the manual and the rules (M25), of an analysis (M50), and
// of the answers whose text holds lines that read as commands (the
// welcome, the conditional moves, a vacation's "vacation off", the
// ratings, the tournaments' answers, the answer to language, the
// answer to timezone and weekends).
// TestPastedMails pastes every golden mail of templates/testdata.
var ownPrefixes = [...]string{
	"Position: ",
	"Reply to this mail to play",
	"Your daily Congo digest, ",
	"CONGO BY MAIL",
	"THE RULES OF CONGO",
	"Welcome to Congo, ",
	"This address is registered already, as ",
	"Your conditional moves in game ",
	"You are on vacation until ",
	"Ratings (Glicko-2), highest first:",
	"You joined tournament ",
	"Open for joining:",
	"Being played:",
	"No tournament is open or running.",
	"The robot's analysis of ",
	"From now on, this server writes to you in ",
	"Your time zone is ",
	"Done. Your time zone is ",
	"Preview: nothing was played",
	"Kept as your private note in game ",
	"Your private notes in game ",
	"You have no notes in game ",

	"このメールに返信すると対局できます",
	"メールで遊ぶ CONGO",
	"コンゴのルール",
	"Congo へようこそ、",
	"このアドレスは、すでに ",
	"レーティング(Glicko-2)、高い順:",
	"参加受付中:",
	"進行中:",
	"参加受付中や進行中の大会はありません。",
	"ご依頼の、",
	"これから、このサーバーはあなたに",
	"あなたのタイムゾーンは ",
	"設定しました。あなたのタイムゾーンは ",
	"プレビュー:手は指されていません",

	"Odpovědí na tento e-mail hrajete",
	"CONGO E-MAILEM",
	"PRAVIDLA HRY CONGO",
	"Vítejte na serveru Congo, ",
	"Tato adresa už je registrována pod přezdívkou ",
	"Vaše podmíněné tahy v partii ",
	"Vaše časové pásmo je ",
	"Hotovo. Vaše časové pásmo je ",
	"Máte dovolenou do ",
	"Rating (Glicko-2), od nejvyššího:",
	"Náhled: nic nebylo zahráno",
	"Uloženo jako vaše soukromá poznámka v partii ",
	"Vaše soukromé poznámky v partii ",
	"Přihlásili jste se do turnaje ",
	"Otevřené pro přihlášky:",
	"Probíhají:",
	"Žádný turnaj není otevřený ani neprobíhá.",
	"Analýza vaší partie ",
	"Analýza partie ",
	"Odteď vám tento server píše ",
}

// ownParts are in fixed lines of the server's own mails whose start
// varies, in each of their languages: the first line of a challenge
// ("alice challenges you to a game of Congo: game 42."), of a digest in
// Japanese and Czech, of the conditional moves and a vacation in
// Japanese, of the answer to join tournament in Japanese, and of the
// answer to games.
var ownParts = [...]string{
	" challenges you to a game of Congo: game ",
	"からコンゴの対局の申し込みがありました:対局 ",
	" vás vyzývá k partii Congo: partie ",
	" さん、Congo の毎日のまとめです。",
	", váš denní přehled ze serveru Congo: ",
	" でのあなたの条件付きの手です。",
	" UTC まで休暇です。",
	"に、あなただけのメモを残しました:",
	" でのあなたのメモです。",
	" には、あなたのメモはありません。",
	" nemáte žádné poznámky.",
	")に参加しました:",
	// The first line of the answer to games, which names commands.
	"games, the most urgent first",
	"の対局です(急ぐものから)。", // as NFKC writes it
	", od nejnaléhavějších",
}

// isOwnLine reports whether line repeats a fixed line of one of the
// server's own mails (M21), so that a mail of ours pasted below a
// command without quote marks is not read: a rank of a board diagram or
// its line of file letters (rules.Position.Diagram, from either side),
// "Position: <R21>", the footer's "Reply to this mail to play...", the
// first line of a board mail ("Game 42: alice (white) vs bob (black)")
// or of a challenge ("alice challenges you to a game of Congo: game
// 42."), of the answer to tournament new ("Tournament 3: Spring Cup"),
// and the other lines of ownPrefixes.
func isOwnLine(line string) bool {
	for _, p := range ownPrefixes {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	for _, p := range ownParts {
		if strings.Contains(line, p) {
			return true
		}
	}
	return isDiagramLine(line) || isPlayersLine(line) || isTournamentLine(line)
}

// isTournamentLine reports whether line is the first line of the answer
// to tournament new: "Tournament 3: Spring Cup" ("大会 3: Spring Cup",
// "Turnaj 3: Spring Cup").
func isTournamentLine(line string) bool {
	rest, ok := strings.CutPrefix(line, "Tournament ")
	if !ok {
		rest, ok = strings.CutPrefix(line, "大会 ")
	}
	if !ok {
		rest, ok = strings.CutPrefix(line, "Turnaj ")
	}
	n := 0
	for ok && n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
		n++
	}
	return n > 0 && strings.HasPrefix(rest[n:], ": ")
}

// isDiagramLine reports whether line is a line of a board diagram as
// rules.Position.Diagram draws it, spaces aside: a rank, "7  g m|e l e|c z
// 7" or "4  ~ ~ ~ ~ ~ ~ ~  4  river", or the file letters, "a b c d e f g"
// (or from Black's side "g f e d c b a").
func isDiagramLine(line string) bool {
	f := strings.Fields(line)
	if j := strings.Join(f, ""); len(f) == 7 && (j == "abcdefg" || j == "gfedcba") {
		return true
	}
	if len(f) < 3 {
		return false
	}
	switch f[len(f)-1] {
	case "river", "川", "řeka": // as templates/lang write it
		f = f[:len(f)-1]
	}
	rank := f[0]
	if len(rank) != 1 || rank[0] < '1' || rank[0] > '7' || f[len(f)-1] != rank {
		return false
	}
	cells := 0
	for _, w := range f[1 : len(f)-1] {
		for i := 0; i < len(w); i++ {
			switch {
			case w[i] == '|':
			case strings.IndexByte("LZEGMCPSlzegmcps.~", w[i]) >= 0:
				cells++
			default:
				return false
			}
		}
	}
	return cells == 7
}

// isPlayersLine reports whether line is the first line of a board mail:
// "Game 42: alice (white) vs bob (black)", with ratings or not, or as
// the mails write it in Japanese and Czech (after NFKC): "対局 42: alice(白)
// 対 bob(黒)", "Partie 42: alice (bílými) – bob (černými)" (and the
// older "(bílý)" and "(černý)", which the same words match).
func isPlayersLine(line string) bool {
	for _, form := range playersLines {
		if isPlayersLineIn(line, form) {
			return true
		}
	}
	return false
}

// playersLine is how one language writes the first line of a board
// mail.
type playersLine struct {
	game, white, vs, black string
}

var playersLines = [...]playersLine{
	{"Game ", " (white", ") vs ", " (black"},
	{"対局 ", "(白", ")対 ", "(黒"},
	{"Partie ", " (bílý", ") – ", " (černý"},
}

func isPlayersLineIn(line string, form playersLine) bool {
	rest, ok := strings.CutPrefix(line, form.game)
	if !ok {
		return false
	}
	i := 0
	for i < len(rest) && '0' <= rest[i] && rest[i] <= '9' {
		i++
	}
	rest, ok = strings.CutPrefix(rest[i:], ": ")
	if i == 0 || !ok {
		return false
	}
	white, black, ok := strings.Cut(rest, form.vs)
	return ok && strings.Contains(white, form.white) && strings.Contains(black, form.black) && strings.HasSuffix(black, ")")
}

// isRule reports whether line is a rule drawn with one character, as
// "________________________________" above Outlook's header block.
func isRule(line string) bool {
	if len(line) < 5 || strings.IndexByte("-_=*~", line[0]) < 0 {
		return false
	}
	return strings.Count(line, line[:1]) == len(line)
}

// isPunctuation reports whether line holds only punctuation, symbols and
// spaces, like "***" or "________".
func isPunctuation(line string) bool {
	for _, r := range line {
		if !unicode.IsPunct(r) && !unicode.IsSymbol(r) && !isSpace(r) {
			return false
		}
	}
	return true
}
