package deps

import (
	_ "github.com/emersion/go-imap/v2/imapclient"
	_ "github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	_ "github.com/emersion/go-message/charset"
	_ "github.com/emersion/go-message/mail"
	_ "github.com/emersion/go-msgauth/authres"
	_ "github.com/emersion/go-sasl"
	_ "github.com/emersion/go-smtp"
	_ "modernc.org/sqlite"
)
