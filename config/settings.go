// Package config holds the settings of congod in one struct: each field
// carries its key (the flag -key, the environment variable CONGO_KEY and
// the key of the configuration file), its group and its words in struct
// tags, and Defaults gives every default. The flags, the example
// configuration file and the settings table of docs/operating.md are all
// made from it (Flags, ExampleFile, MarkdownTable).
package config

import (
	"net"
	"strings"
	"time"

	"github.com/congobymail/congo/analysis"
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/outbox"
)

// Settings are congod's settings. The tags of a field:
//
//	key      the flag's name, the file's key and (as CONGO_KEY) the environment variable
//	arg      the word for its value in the docs (URL, N, FILE); none for a switch
//	group    the section of the example file and of the docs it stands in
//	usage    one line, for congod -help
//	doc      what it does, in full (markdown), for the docs and the example file
//	example  a value to show instead of the default (for a required setting)
//	shown    the default as the docs say it, when the value alone says too little
//	file     "no" for the flags that are commands, not settings: no key of the file
type Settings struct {
	IMAP             string        `key:"imap" arg:"URL" group:"Mail" example:"imaps://congo%40example.org@imap.example.org/INBOX" usage:"mailbox to read commands from: imap://user:pass@host:port/MAILBOX, imaps://... (TLS) or imap+starttls://..." doc:"The mailbox congod reads commands from (required): \x60imap://user:pass@host:port/MAILBOX\x60 (no TLS: loopback only, unless \x60insecure\x60), \x60imaps://...\x60 (TLS, port 993) or \x60imap+starttls://...\x60 (STARTTLS, port 143). MAILBOX defaults to INBOX. Characters such as @ in the user or password are URL-encoded (\x60%40\x60); leave the password out and use \x60imap-password-file\x60 to keep it out of the settings."`
	IMAPPasswordFile string        `key:"imap-password-file" arg:"FILE" group:"Mail" usage:"file holding the IMAP password (instead of a password in -imap); one trailing newline is dropped" doc:"A file holding the IMAP password, alone on its first line (a trailing newline is dropped); \x60imap\x60 then names the user but no password. Keeps it out of \x60ps\x60 and of the configuration file."`
	SMTP             string        `key:"smtp" arg:"URL" group:"Mail" example:"smtp+starttls://congo%40example.org@smtp.example.org:587" usage:"server to send mail through: smtp://[user:pass@]host:port, smtps://... (TLS) or smtp+starttls://..." doc:"The server that sends congod's mail (required): \x60smtp://[user:pass@]host:port\x60 (no TLS: with a password, loopback only, unless \x60insecure\x60), \x60smtps://...\x60 (TLS, port 465) or \x60smtp+starttls://...\x60 (STARTTLS, port 587). With a user, congod logs in with AUTH PLAIN."`
	SMTPPasswordFile string        `key:"smtp-password-file" arg:"FILE" group:"Mail" usage:"file holding the SMTP password (instead of a password in -smtp); one trailing newline is dropped" doc:"A file holding the SMTP password, as \x60imap-password-file\x60 does for IMAP."`
	SMTPConnections  int           `key:"smtp-connections" arg:"N" group:"Mail" usage:"how many mails are sent at once, each over an SMTP session of its own; each recipient's mails go one after another, in order" doc:"How many mails are sent at once, each over an SMTP session of its own (kept open while idle); each recipient's mails go one after another, in the order queued. Lower it when the SMTP server allows a client fewer sessions at once (some providers do: mails it refuses wait and are sent later)."`
	Address          string        `key:"address" arg:"ADDR" group:"Mail" example:"congo@example.org" usage:"the server's own address, e.g. congo@example.org (From, and the base of personal reply addresses)" doc:"congod's own address (required): the From of its mail, and the base of the players' personal addresses, \x60congo+SECRET@example.org\x60. The mailbox must receive mail sent to such plus-addresses."`
	Name             string        `key:"name" arg:"NAME" group:"Mail" usage:"display name of the server's mails (From: Congo <congo@example.org>)" doc:"The display name of the server's mails: \x60From: Congo <congo@example.org>\x60."`
	Hostname         string        `key:"hostname" arg:"NAME" group:"Mail" shown:"the domain of -address" usage:"host name used in Message-IDs and in the SMTP EHLO (default: the domain of -address)" doc:"The host name in the Message-IDs congod makes, and the name it gives in the SMTP EHLO (which the server may check and writes in its \x60Received\x60 header); empty means the domain of \x60address\x60."`
	Poll             time.Duration `key:"poll" arg:"DURATION" group:"Mail" usage:"how often to look for mail when the IMAP server offers no IDLE" doc:"How often to look for new mail when the IMAP server offers no IDLE."`
	Processed        string        `key:"processed" arg:"MAILBOX" group:"Mail" usage:"mailbox that handled mail is moved to (created when missing)" doc:"The mailbox that handled mail is moved to; created when missing."`
	Quarantine       string        `key:"quarantine" arg:"MAILBOX" group:"Mail" usage:"mailbox that a mail is set aside in when handling it failed -max-tries times (created when missing)" doc:"The mailbox that a mail is set aside in when handling it failed \x60max-tries\x60 times (a bug, say); created when missing. Move a mail back to the INBOX to have it tried again (see docs/guarantees.md)."`
	MaxTries         int           `key:"max-tries" arg:"N" group:"Mail" usage:"failed tries of one mail before it is set aside in the -quarantine mailbox" doc:"Failed tries of one mail before it is set aside in the \x60quarantine\x60 mailbox."`
	MaxSize          int64         `key:"max-size" arg:"BYTES" group:"Mail" usage:"most bytes read of one mail; of a larger one only its start (header and text, not attachments)" doc:"The most bytes read of one mail: of a larger one only its start (the header and the text, not the attachments)."`
	TrustAuthServ    string        `key:"trust-authserv" arg:"HOST" group:"Mail" usage:"accept commands whose Authentication-Results from this host say dmarc=pass with header.from the From's domain" doc:"Accept commands whose Authentication-Results header, added by this receiving mail server (its authserv-id), says \x60dmarc=pass\x60 with \x60header.from\x60 the From's domain (see Who may act in docs/playing.md); a \x60dkim=pass\x60 alone proves nothing. Empty trusts none, and a command must come to the player's personal address."`

	MaxPerRecipient  int `key:"max-per-recipient" arg:"N" group:"Limits" usage:"most mails to one address in an hour (lowercased, +tag stripped); -1 for no cap" doc:"The most mails to one address in a sliding hour (lowercased, \x60+tag\x60 stripped); past it a mail waits in the outbox, in order, until the hour allows it (M53; see Limits in docs/playing.md); one player's mails may cause at most half of it to another. -1 for no cap."`
	MaxPerSender     int `key:"max-per-sender" arg:"N" group:"Limits" usage:"most mails one player's mails may cause to others in an hour; -1 for no cap" doc:"The most mails one player's mails may cause to others in a sliding hour; past it their commands that would mail others are refused, and the answer says so. -1 for no cap."`
	MaxPerHour       int `key:"max-per-hour" arg:"N" group:"Limits" usage:"most mails the server sends in an hour; -1 for no cap" doc:"The most mails the whole server sends in a sliding hour; past it a mail waits, in order, until the hour allows it (M53). -1 for no cap."`
	RobotGames       int `key:"robot-games" arg:"N" group:"Limits" usage:"most games a player may play against the robot at once; -1 for no cap" doc:"The most games one player may play against the robot at once; -1 for no cap."`
	ChallengesPerDay int `key:"challenges-per-day" arg:"N" group:"Limits" usage:"most challenges a player may make in a day; -1 for no cap" doc:"The most challenges one player may make in a day; -1 for no cap."`
	AnalysesPerDay   int `key:"analyses-per-day" arg:"N" group:"Limits" usage:"most analyses (analyze congo <id>) one player may ask for in a day; -1 for no cap" doc:"The most analyses (\x60analyze congo <id>\x60, M49) one player may ask for in a sliding day; a game analyzed before is sent at once and does not count; -1 for no cap."`

	Robot         string `key:"robot" arg:"HANDLE" group:"Players" usage:"handle of the computer player anyone may challenge; \"off\" (or empty) for none" doc:"The handle of the computer player anyone can challenge (\x60challenge congo robot level=3\x60; see Playing the robot in docs/playing.md); it is registered at start, accepts every challenge at once, and is never mailed. \x60off\x60 (or empty) for none."`
	AnalysisNodes int64  `key:"analysis-nodes" arg:"N" group:"Players" usage:"nodes the engine searches in each position of a game it analyses: the same count gives the same analysis on every machine" doc:"The nodes the engine searches in each position of a game it analyzes: the same count gives the same analysis on every machine (M51); a game is analyzed once, and its analysis kept."`
	Tables        string `key:"tables" arg:"DIR" group:"Players" shown:"none (off)" usage:"directory of the endgame tables (built by congo tables DIR): robot levels 4 and 5 and the analyses play and judge every position of four men or fewer exactly by them" doc:"The directory of the endgame tables, built by \x60congo tables DIR\x60 (63 files, 11 MB, under a minute on two cores; see docs/engine.md): robot levels 4 and 5 then play every position of four men or fewer by them, winning a won one in exactly its number of moves and defending a lost one as long as it lasts, and an analysis gives such positions their exact value, \x60+lion in N\x60, \x60-lion in N\x60 or \x600.00\x60, saying that it comes from the tables (M76-M77). They are read into memory at start (a missing or damaged file stops congod); empty plays without them, as before."`
	Language      string `key:"language" arg:"CODE" group:"Players" usage:"language of the mails to a new player whose register mail names none of en, ja, cs in its Content-Language, and of answers to unknown senders: en (English), ja (Japanese) or cs (Czech)" doc:"The language of a new player's mails when their register mail names none of \x60en\x60, \x60ja\x60, \x60cs\x60 in its Content-Language header, and of the answers to senders who are not registered (M40): \x60en\x60 (English), \x60ja\x60 (Japanese) or \x60cs\x60 (Czech). A player changes theirs with \x60language ja\x60."`
	Operator      string `key:"operator" arg:"ADDR" group:"Players" usage:"the operator's address: mail from it (registered and proven like any player's) may ban, unban, adjourn, resume and adjudicate" doc:"The operator's address. The operator registers from it like a player and sends, to their personal address, any of: \x60ban HANDLE\x60, \x60unban HANDLE\x60, \x60adjourn congo ID\x60, \x60resume congo ID\x60, \x60adjudicate congo ID white|black|draw\x60 (see Administer in docs/operating.md). Empty: no one may. \x60congod admin ...\x60 does the same on the machine."`

	CAFile             string `key:"ca-file" arg:"PEM" group:"TLS" usage:"PEM file of extra certificate authorities to trust for IMAP and SMTP TLS (for a private CA)" doc:"A PEM file of extra certificate authorities to trust for IMAP and SMTP (a private CA)."`
	TLSServerName      string `key:"tls-server-name" arg:"NAME" group:"TLS" shown:"the host of each URL" usage:"the name the IMAP and SMTP servers' certificates must hold, when -imap or -smtp gives the host as an address (default: the host of each URL)" doc:"The name the IMAP and SMTP servers' certificates must hold, when \x60imap\x60 or \x60smtp\x60 gives the host as an address (\x60imaps://congo:PW@192.0.2.7/INBOX\x60 with \x60tls-server-name = \"mail.example.org\"\x60); empty means the host of each URL."`
	InsecureSkipVerify bool   `key:"insecure-skip-verify" group:"TLS" usage:"do not verify IMAP and SMTP TLS certificates (testing only)" doc:"Do not check the IMAP and SMTP servers' certificates. For tests only."`
	Insecure           bool   `key:"insecure" group:"TLS" usage:"allow imap:// and smtp:// URLs that send a password unencrypted to a host that is not loopback" doc:"Allow \x60imap://\x60 and \x60smtp://\x60 URLs (no TLS) that carry a password (in the URL or a password file) to a host that is not loopback (127.0.0.0/8, \x60::1\x60, \x60localhost\x60), and a PostgreSQL \x60db\x60 URL with a password to such a host without \x60sslmode=require\x60: the password would cross the network unencrypted. Without it, congod and \x60-check-config\x60 refuse them and say what to use instead."`

	DB string `key:"db" arg:"PATH" group:"Storage" usage:"the database: a SQLite file, or a URL postgres://user:password@host:port/dbname?sslmode=... (M47)" doc:"The database: a SQLite file, or PostgreSQL as a URL \x60postgres://congo:PASSWORD@db.example.org:5432/congo?sslmode=verify-full\x60 (M47; several congod on other hosts may share one PostgreSQL database and one mailbox, one of them at a time doing the work: see Beyond one machine in docs/operating.md). With a password to a host that is not loopback the URL must say \x60sslmode=require\x60, \x60verify-ca\x60 or \x60verify-full\x60 (or \x60insecure\x60). Back it up, while congod runs, with \x60congod -config FILE backup /var/backups/congo-DATE.db\x60 (for PostgreSQL it runs pg_dump, which must be installed)."`

	LogLevel       string `key:"log-level" arg:"LEVEL" group:"Logs and monitoring" usage:"log level: debug, info, warn or error" doc:"debug, info, warn or error. Mail bodies and passwords are never logged."`
	LogFormat      string `key:"log-format" arg:"FORMAT" group:"Logs and monitoring" usage:"log format: text or json" doc:"\x60text\x60 (key=value, one line an event) or \x60json\x60 (one object a line)."`
	HTTP           string `key:"http" arg:"ADDR" group:"Logs and monitoring" shown:"none (off)" usage:"serve /healthz and /metrics on this address, e.g. 127.0.0.1:8025 (off when empty)" doc:"Serve \x60/healthz\x60 and Prometheus \x60/metrics\x60 on this address, such as \x60127.0.0.1:8025\x60; empty serves nothing. They tell about the games' traffic: keep them on loopback or behind a firewall."`
	Web            string `key:"web" arg:"ADDR" group:"Logs and monitoring" shown:"none (off); 127.0.0.1:8080 with -demo" usage:"serve the read-only web pages of the games, players and tournaments on this address, e.g. 127.0.0.1:8080 (off when empty or \"off\"; 127.0.0.1:8080 with -demo)" doc:"Serve the read-only web pages of the games, players, ratings and tournaments (see On the web in docs/playing.md) on this address, such as \x60127.0.0.1:8080\x60 behind a proxy with TLS; empty (or \x60off\x60) serves none, with \x60-demo\x60 too, where it must be a loopback address. Every board mail then names its game's page."`
	WebConnections int    `key:"web-connections" arg:"N" group:"Logs and monitoring" usage:"most connections the web pages serve at once; more wait to be accepted" doc:"The most connections the web pages (\x60web\x60) serve at once; more wait until one closes (M57): no number of web clients keeps congod from reading or sending mail. congod raises its limit of open files to the system's hard limit at start, and logs both."`
	PublicURL      string `key:"public-url" arg:"URL" group:"Logs and monitoring" shown:"http://ADDR/ of -web" usage:"the address of the -web pages as players reach them, the base of the links in mails, e.g. https://congo.example.org/ (default http://ADDR/ of -web)" doc:"The address players reach the web pages at, the base of the links in mails, such as \x60https://congo.example.org/\x60; a path (\x60https://example.org/congo/\x60) puts the pages' links under it. Empty means \x60http://ADDR/\x60 of \x60web\x60 (with localhost for a host left open, as in \x60:8080\x60). Needs \x60web\x60."`

	Config      string `key:"config" arg:"FILE" group:"Commands and the demo" file:"no" usage:"TOML configuration file; its keys are the flag names (imap = \"imaps://...\")" doc:"The TOML file of settings, keys named as the flags (\x60CONGO_CONFIG\x60 too; not itself a key)."`
	CheckConfig bool   `key:"check-config" group:"Commands and the demo" file:"no" usage:"check the settings, log in to IMAP and SMTP and write to the database (no mail sent), print what is wrong or \"configuration ok\", and exit" doc:"Check the settings, then connect as the daemon would: log in to IMAP and open the mailbox (read only), set up an SMTP session (EHLO, STARTTLS, AUTH; no mail sent), open the database and write to it (one not there yet is not made: its directory must take files); print a line for each, then \x60configuration ok\x60, or what is wrong with each (a refused login, a certificate not trusted or not for the host, a mailbox not found, a database that takes no write) and exit 1."`
	Version     bool   `key:"version" group:"Commands and the demo" file:"no" usage:"print the version and exit" doc:"Print the version and commit, and exit."`
	Demo        bool   `key:"demo" group:"Commands and the demo" file:"no" usage:"run a self-contained demo: in-process IMAP and SMTP servers on loopback with player accounts" doc:"Run with in-process mail servers on loopback and player accounts (see the Quick start in README.md)."`
	DemoIMAP    string `key:"demo-imap" arg:"ADDR" group:"Commands and the demo" file:"no" usage:"with -demo: where the demo IMAP server listens (a loopback address)" doc:"With \x60-demo\x60: the IMAP listener; a loopback address only (\x60127.0.0.1\x60, \x60[::1]\x60, \x60localhost\x60), as is \x60-http\x60 with \x60-demo\x60, since the demo has no TLS and known passwords."`
	DemoSMTP    string `key:"demo-smtp" arg:"ADDR" group:"Commands and the demo" file:"no" usage:"with -demo: where the demo SMTP server listens (a loopback address)" doc:"With \x60-demo\x60: the SMTP listener; a loopback address only."`

	// from tells where each setting came from, by key ("-poll",
	// "CONGO_POLL", `FILE: key "poll"`); a key missing from it has its
	// default.
	from map[string]string
}

// Defaults are the settings of a run that sets none.
func Defaults() Settings {
	return Settings{
		SMTPConnections:  outbox.DefaultConnections,
		Name:             "Congo",
		Poll:             mailer.DefaultPoll,
		Processed:        mailer.DefaultProcessed,
		Quarantine:       mailer.DefaultQuarantine,
		MaxTries:         mailer.DefaultMaxTries,
		MaxSize:          mailer.DefaultMaxSize,
		MaxPerRecipient:  outbox.DefaultMaxPerRecipient,
		MaxPerSender:     outbox.DefaultMaxPerSender,
		MaxPerHour:       outbox.DefaultMaxPerHour,
		RobotGames:       DefaultRobotGames,
		ChallengesPerDay: DefaultChallengesPerDay,
		AnalysesPerDay:   DefaultAnalysesPerDay,
		Robot:            DefaultRobot,
		AnalysisNodes:    analysis.DefaultNodes,
		Language:         string(lang.English),
		DB:               "congo.db",
		WebConnections:   DefaultWebConnections,
		LogLevel:         "info",
		LogFormat:        "text",
		DemoIMAP:         "127.0.0.1:1143",
		DemoSMTP:         "127.0.0.1:2525",
	}
}

// The defaults of the settings that no lower package has a default for.
const (
	DefaultRobot            = "robot" // the robot's handle
	DefaultRobotGames       = 10
	DefaultChallengesPerDay = 20
	DefaultAnalysesPerDay   = 5
	DefaultWebConnections   = 256
)

// RobotHandle is the handle of the robot player, "" for none.
func (s *Settings) RobotHandle() string {
	if strings.EqualFold(s.Robot, "off") {
		return ""
	}
	return s.Robot
}

// WebOn reports whether the web pages are served.
func (s *Settings) WebOn() bool {
	return s.Web != "" && !strings.EqualFold(s.Web, "off")
}

// Connections is how many mails are sent at once (zero, as settings made
// in a test leave it, for the default).
func (s *Settings) Connections() int {
	if s.SMTPConnections == 0 {
		return outbox.DefaultConnections
	}
	return s.SMTPConnections
}

// HostName is the host name of the Message-IDs and of the SMTP EHLO:
// -hostname, or the domain of -address.
func (s *Settings) HostName() string {
	if s.Hostname != "" {
		return s.Hostname
	}
	return s.Address[strings.LastIndex(s.Address, "@")+1:]
}

// Lang is the default language of the mails, English when none is set;
// a language that is none of the server's is English too (Validate
// refuses it first).
func (s *Settings) Lang() lang.Code {
	l, _ := lang.Parse(s.Language)
	return l.Or(lang.English)
}

// Pages is the address players reach the web pages at: -public-url, or
// http:// and the address of -web, whose port is that of bound when
// bound is not empty (the address the listener was given, for a port 0),
// and whose host is localhost when it is left open (":8080",
// "0.0.0.0:8080"), as no mail should name an address that means "any";
// open reports that. Pages is "" when the web pages are off.
func (s *Settings) Pages(bound string) (url string, open bool) {
	switch {
	case !s.WebOn():
		return "", false
	case s.PublicURL != "":
		return s.PublicURL, false
	}
	host, port, _ := net.SplitHostPort(s.Web)
	if bound != "" {
		_, port, _ = net.SplitHostPort(bound)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host, open = "localhost", true
	}
	return "http://" + net.JoinHostPort(strings.Trim(host, "[]"), port) + "/", open
}
