package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/congobymail/congo/config"
)

// settings are congod's settings (config.Settings: every flag, its
// environment twin and its key of the configuration file) and what a run
// adds to them.
type settings struct {
	config.Settings

	// httpReady, when set, is told the address the HTTP listener is bound
	// to (tests listen on port 0).
	httpReady func(addr string)
	// smtpLoginBlock, when set, is how long no SMTP login is tried after
	// a refused one (mailer.SMTP.LoginBlock): tests shorten it.
	smtpLoginBlock time.Duration
	// web is the listener of the web pages and their public URL, once
	// opened (openWeb): the demo opens it before it prints the banner.
	web *webListener
}

// usage is the help of congod -help.
func usage(fs *flag.FlagSet) {
	fmt.Fprintf(fs.Output(), `Usage:
  congod [flags]                 run the daemon
  congod [flags] backup FILE     copy the database, while the daemon runs, to FILE
  congod [flags] admin COMMAND   ban HANDLE, unban HANDLE, adjourn ID, resume ID,
                                 adjudicate ID white|black|draw
  congod [flags] mail ID         print a mail the server queued or sent

Every flag is also an environment variable (-imap is CONGO_IMAP,
-trust-authserv is CONGO_TRUST_AUTHSERV) and a key of the -config file
(imap = "...", trust-authserv = "..."). A flag given on the command line
wins over the environment, which wins over the file, which wins over the
default.

Flags:
`)
	fs.PrintDefaults()
}

// parseConfig reads the settings from args, the environment and the
// configuration file (config.Load), and returns them with the arguments
// left after the flags (a subcommand and its arguments).
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (*settings, []string, error) {
	s, rest, err := config.Load(args, getenv, stderr, usage)
	if err != nil {
		return nil, nil, err
	}
	return &settings{Settings: *s}, rest, nil
}
