package mailer

import (
	"errors"
	"fmt"
	"time"

	"github.com/emersion/go-smtp"
)

// authError is a failed AUTH. It is never permanent, even with a 5xx code:
// a wrong password is a setting to fix, not a reason to drop the mail.
// until is when a login may be tried again, once the refusal is recorded
// (zero when it is not, a Send cut short meanwhile); held is set when no
// login was tried, as the last one was refused.
type authError struct {
	user     string
	err      error
	until    time.Time
	held     bool
	recorded bool // authRefused has it, or it is the one it has
}

func (e *authError) Error() string {
	if e.held {
		return fmt.Sprintf("auth as %q refused: %v (not trying again before %s)", e.user, e.err, e.until.Format(time.TimeOnly))
	}
	return fmt.Sprintf("auth as %q: %v", e.user, e.err)
}
func (e *authError) Unwrap() error { return e.err }

// connectError is a failure before the server could be given a mail:
// the connection, TLS, the greeting or EHLO. It says nothing of the mail,
// so it is never permanent, even with a 5xx code.
type connectError struct{ err error }

func (e *connectError) Error() string { return e.err.Error() }
func (e *connectError) Unwrap() error { return e.err }

// IsPermanent reports whether err, from Send, is a permanent failure: the
// server answered the mail with a 5xx reply (RFC 5321 4.2.1), so sending
// the same mail again will fail again. Everything else (4xx replies,
// network errors, timeouts, TLS failures, a refused greeting or EHLO, a
// rejected login) is temporary.
func IsPermanent(err error) bool {
	var ae *authError
	var ce *connectError
	if errors.As(err, &ae) || errors.As(err, &ce) {
		return false
	}
	var se *smtp.SMTPError
	return errors.As(err, &se) && se.Code >= 500 && se.Code <= 599
}

// IsUnreachable reports whether err, from Send or Check, says that no
// session with the server could be had: the connection failed or was
// refused, or TLS, the greeting or EHLO did. Such a failure says nothing
// of the mail, and Check tells when the server is back.
func IsUnreachable(err error) bool {
	var ce *connectError
	return errors.As(err, &ce)
}

// IsAuthFailure reports whether err, from Send or Check, is a login the
// server refused, or one not tried because the last was refused a moment
// ago (see Send).
func IsAuthFailure(err error) bool {
	var ae *authError
	return errors.As(err, &ae)
}

// LoginBlockedUntil reports whether err, from Send or Check, is a login
// the server refused, or one not tried because the last was refused, and
// returns when the next login may be tried (see SMTP.LoginBlock). Such a
// Send never handed the mail to the server: nothing is wrong with the
// mail, and another Send before then fails at once in the same way.
func LoginBlockedUntil(err error) (time.Time, bool) {
	var ae *authError
	if !errors.As(err, &ae) || ae.until.IsZero() {
		return time.Time{}, false
	}
	return ae.until, true
}
