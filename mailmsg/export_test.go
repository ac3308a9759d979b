package mailmsg

// Budget is the budget of reading a mail, for tests that parse within one
// of their own.
type Budget = budget

// DefaultBudget is the budget of Parse.
var DefaultBudget = defaultBudget

// ParseWithin is Parse within budget b.
func ParseWithin(raw []byte, b Budget) (*Incoming, error) { return parse(raw, b) }
