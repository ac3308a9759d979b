package parser

import "strings"

// ParseAdmin reads one line as an operator's command: "ban alice",
// "unban alice", "adjourn congo 42", "resume congo 42", "adjudicate congo
// 42 white" (the word congo is optional; case does not matter), as the
// operator gives them on the command line. ok is false when the line is
// not one; a line that starts with the word of one but is otherwise wrong
// gives ok true and an Error.
func ParseAdmin(line string) (c Command, e Error, ok bool) {
	line = strings.TrimFunc(line, isSpace)
	words := strings.FieldsFunc(line, isSpace)
	if len(words) == 0 || !keyword(words[0]).Admin() {
		return Command{}, Error{}, false
	}
	c, e, _ = parseLine(line, normalise(line), scope{operator: true})
	return c, e, true
}
