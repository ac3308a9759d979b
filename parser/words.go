package parser

import (
	"slices"
	"strings"
	"unicode"
)

// Game actions written in words (M58). A player who writes "I resign,
// well played." or "draw?" in a reply about a game means to resign or
// to offer a draw, but only the command does it: such a line is the
// message to the opponent, as every line that is no command, and the
// answer says first what was not done and the line to send. What is
// read here is only how to say so: nothing is ever done for a line of
// words, so a line read wrongly costs a needless sentence, never a
// game.

// action is a game command that a line of words asks for.
type action uint8

const (
	noAction      action = iota
	resignWords          // "I resign", "I give up", "投了します", "Vzdávám."
	offerWords           // "draw?", "Shall we call it a draw?", "引き分けにしませんか", "Remíza?"
	acceptWords          // "I accept the draw", "引き分けを受けます", "Přijímám remízu."
	declineWords         // "No draw, thanks", "引き分けはお断りします", "Remízu odmítám."
	takebackWords        // "Can I take that back?", "待った！", "Můžu vzít tah zpět?"
	abortWords           // "Shall we abort?", "対局を中止しましょう", "Zrušme partii."
)

// The answers to the actions in words: what was not done and the line
// to send, one sentence each, in English (their translations are in
// templates/lang, under these words).
const (
	resignHint   = `Nothing was done: to resign, send "resign" on a line of its own.`
	offerHint    = `Nothing was done: to offer a draw (or accept one), send "draw" on a line of its own.`
	acceptHint   = `Nothing was done: to accept the draw, send "draw" on a line of its own.`
	declineHint  = `Nothing was done: to decline the draw, send "nodraw" on a line of its own.`
	takebackHint = `Nothing was done: to take back the last move (to ask for it, or to agree), send "takeback" on a line of its own.`
	abortHint    = `Nothing was done: to abort the game, send "abort" on a line of its own.`
)

// inWords returns the hint for a line of a message that asks in words
// for a game action, and whether it does. line is as written, text
// normalised (normalise).
func inWords(line, text string) (Error, bool) {
	if len(text) > maxLineLen {
		return Error{}, false
	}
	switch actionOf(text) {
	case resignWords:
		return lineError(line, InWords, resignHint), true
	case offerWords:
		return lineError(line, InWords, offerHint), true
	case acceptWords:
		return lineError(line, InWords, acceptHint), true
	case declineWords:
		return lineError(line, InWords, declineHint), true
	case takebackWords:
		return lineError(line, InWords, takebackHint), true
	case abortWords:
		return lineError(line, InWords, abortHint), true
	}
	return Error{}, false
}

// actionOf reads the game action a line of words asks for, in the
// languages of M40: its words in English and Czech, lowercase and
// without Czech accents; its phrases in Japanese.
func actionOf(text string) action {
	if a := japaneseAction(text); a != noAction {
		return a
	}
	words := strings.FieldsFunc(fold(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	if len(words) == 0 {
		return noAction
	}
	if a := alone(words, text); a != noAction {
		return a
	}
	if a := englishAction(words, strings.HasSuffix(strings.TrimFunc(text, isSpace), "?")); a != noAction {
		return a
	}
	return czechAction(words)
}

// fold is text lowercase, its typographic apostrophes straight, and
// its Czech letters without their accents, as the words are compared.
func fold(text string) string {
	return accentless.Replace(strings.ToLower(strings.ReplaceAll(text, "’", "'")))
}

var accentless = strings.NewReplacer(
	"á", "a", "č", "c", "ď", "d", "é", "e", "ě", "e", "í", "i", "ň", "n",
	"ó", "o", "ř", "r", "š", "s", "ť", "t", "ú", "u", "ů", "u", "ý", "y", "ž", "z",
)

// alone reads a line that is a game command's word with a mark after
// it, which is no command: "draw?", "Resign.", "takeback?", "Abort!".
func alone(words []string, text string) action {
	if len(words) != 1 || strings.TrimFunc(text, func(r rune) bool { return unicode.IsLetter(r) }) == "" {
		return noAction
	}
	switch words[0] {
	case "resign":
		return resignWords
	case "draw", "remis", "remiza":
		return offerWords
	case "nodraw":
		return declineWords
	case "takeback":
		return takebackWords
	case "abort":
		return abortWords
	}
	return noAction
}

// has reports whether words hold one of w.
func has(words []string, w ...string) bool {
	return slices.ContainsFunc(words, func(x string) bool { return slices.Contains(w, x) })
}

// hasPrefix reports whether a word of words starts with one of p.
func hasPrefix(words []string, p ...string) bool {
	for _, x := range words {
		for _, y := range p {
			if strings.HasPrefix(x, y) {
				return true
			}
		}
	}
	return false
}

// phrase reports whether words hold the words of p in a row.
func phrase(words []string, p string) bool {
	ps := strings.Fields(p)
	for i := 0; i+len(ps) <= len(words); i++ {
		if slices.Equal(words[i:i+len(ps)], ps) {
			return true
		}
	}
	return false
}

// englishNegations are the words that turn an English line of an action
// into one that asks for none: "I won't resign", "never give up".
var englishNegations = []string{"not", "never", "don't", "dont", "won't", "wont", "cannot", "can't", "shouldn't", "wouldn't", "isn't"}

// toYou reports whether the word at i of words is said of the reader,
// not of the writer: "you" stands in the three words before it, with
// no "i" between ("you should resign", "do you want to resign?").
func toYou(words []string, i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		switch words[j] {
		case "i", "i'll", "i'm", "we", "let's":
			return false
		case "you", "you're", "you'll":
			return true
		}
	}
	return false
}

// index returns the index of the first of w in words, or -1.
func index(words []string, w ...string) int {
	return slices.IndexFunc(words, func(x string) bool { return slices.Contains(w, x) })
}

// englishAction reads an English line; question is set when it ends in
// a question mark.
func englishAction(words []string, question bool) action {
	draw := index(words, "draw", "remis")
	switch {
	case draw >= 0 && (phrase(words, "no draw") || has(words, "decline", "declined", "refuse", "refused", "reject")):
		return declineWords
	case has(words, englishNegations...):
		return noAction
	case draw >= 0 && (has(words, "accept", "accepted", "agree", "agreed", "ok", "okay", "yes", "gladly") ||
		phrase(words, "i'll take") || phrase(words, "i take")) && !toYou(words, index(words, "accept", "agree")):
		return acceptWords
	case draw >= 0 && (question || has(words, "offer", "offering", "offered", "propose", "suggest", "shall", "call", "want", "like", "take", "settle", "agree")):
		return offerWords
	}
	if i := index(words, "resign", "resigning", "concede", "conceding"); i >= 0 && !toYou(words, i) ||
		phrase(words, "i give up") || phrase(words, "i'll give up") || phrase(words, "giving up") || phrase(words, "i quit") {
		return resignWords
	}
	if i := index(words, "take", "takeback", "undo"); i >= 0 {
		after := words[i+1:]
		if words[i] != "take" || has(after[:min(len(after), 4)], "back") {
			return takebackWords
		}
	}
	if has(words, "abort", "aborting") || phrase(words, "cancel the game") || phrase(words, "cancel this game") ||
		phrase(words, "call the game off") || phrase(words, "call off the game") {
		return abortWords
	}
	return noAction
}

// czechAction reads a Czech line, its words without accents. A verb
// that says "not" starts with "ne" ("nevzdávám"), and so is no stem
// read here.
func czechAction(words []string) action {
	if hasPrefix(words, "remiz", "remis") {
		switch {
		case has(words, "ne") || hasPrefix(words, "odmit", "nechci", "nepri", "nebere"):
			return declineWords
		case hasPrefix(words, "prijim", "prijm", "beru", "souhlas", "ano", "dobre") || has(words, "ok", "jo"):
			return acceptWords
		}
		return offerWords
	}
	if hasPrefix(words, "vzdavam", "vzdam", "vzdat", "kapituluj") {
		return resignWords
	}
	if hasPrefix(words, "zpet", "zpatky") && hasPrefix(words, "vzi", "vza", "vez", "vrat", "ber", "tah", "vem") ||
		hasPrefix(words, "vratit", "vratim", "vratte", "vrat") && hasPrefix(words, "tah") {
		return takebackWords
	}
	if hasPrefix(words, "zrus", "zrusme", "zrusit") && hasPrefix(words, "parti", "hru", "hra") {
		return abortWords
	}
	return noAction
}

// japaneseAction reads a Japanese line, by its phrases. "ませんか" ("shall
// we not ...?") asks; a "ません" or "ない" without it says no.
func japaneseAction(text string) action {
	asks := strings.Contains(text, "ませんか") || strings.Contains(text, "ないか")
	t := strings.ReplaceAll(text, "ませんか", "")
	negated := strings.Contains(t, "ません") || strings.Contains(t, "しない") || strings.Contains(t, "できない")
	containsAny := func(ps ...string) bool {
		for _, p := range ps {
			if strings.Contains(text, p) {
				return true
			}
		}
		return false
	}
	if containsAny("引き分け", "引分け", "ドロー") {
		switch {
		case containsAny("断", "拒否", "結構です", "いいえ"):
			return declineWords
		case negated:
			return noAction
		case !asks && containsAny("受け", "同意", "応じ", "承知", "了解", "はい", "喜んで"):
			return acceptWords
		}
		return offerWords
	}
	if negated {
		return noAction
	}
	switch {
	case containsAny("投了", "参りました", "まいりました", "降参", "負けました", "負けを認め"):
		return resignWords
	case containsAny("待った", "一手戻", "手を戻", "戻して", "戻させ", "取り消", "やり直"):
		return takebackWords
	case containsAny("中止", "対局をやめ", "キャンセル"):
		return abortWords
	}
	return noAction
}
