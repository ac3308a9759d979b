// Package web serves the read-only web pages of MAIL.md M43-M46 from the
// database.
//
// The pages show the games, players, ratings and tournaments, with the
// board and the rating charts as SVG drawn by the server, and an Atom
// feed of each player's games. They show handles only, never an address,
// a secret, a conditional move or a message.
package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/congobymail/congo/db"
)

// Config configures a Handler.
type Config struct {
	// DB is where the games are. Required. The handler only reads it, in
	// read-only transactions.
	DB *db.DB

	// PublicURL is the address of the pages as the world reaches them,
	// like https://congo.example.org/ or http://127.0.0.1:8080/: the base
	// of the feeds' links, and its path the base of the pages' links.
	// Required.
	PublicURL string

	// Site is the server's mail address, the Site of the game records
	// (game.Record) and where the pages say to mail. Required.
	Site string

	// Now gives the time the clocks are read at; default time.Now.
	Now func() time.Time

	// Logger receives a line per request (at debug level) and the
	// failures; default slog.Default().
	Logger *slog.Logger

	// Metrics, when set, is told of each request.
	Metrics Metrics
}

// Metrics is told how long each request took.
type Metrics interface {
	// PageServed is told of each request: the kind of page ("game",
	// "player", ..., "none" for an address that is none), the status
	// and the time it took.
	PageServed(page string, status int, d time.Duration)
}

// Handler is the http.Handler of the pages. It is safe for concurrent
// use.
type Handler struct {
	db      *db.DB
	public  *url.URL
	base    string // the path of the public URL, ending in "/"
	site    string
	now     func() time.Time
	log     *slog.Logger
	metrics Metrics

	// ratings caches the rating history of every player (ratings.go).
	ratingsMu sync.Mutex
	ratings   *ratingHistory
}

// New returns the handler of the pages.
func New(cfg Config) (*Handler, error) {
	if cfg.DB == nil {
		return nil, errors.New("web: no database")
	}
	u, err := ParsePublicURL(cfg.PublicURL)
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	h := &Handler{db: cfg.DB, public: u, base: u.Path, site: cfg.Site, now: cfg.Now, log: cfg.Logger, metrics: cfg.Metrics}
	if h.now == nil {
		h.now = time.Now
	}
	if h.log == nil {
		h.log = slog.Default()
	}
	return h, nil
}

// ParsePublicURL checks a public URL: absolute, http or https, with a
// host, and no query or fragment. It returns it with its path ending in
// "/".
func ParsePublicURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.User != nil {
		return nil, fmt.Errorf("%q is not an http:// or https:// address like https://congo.example.org/", s)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%q has a query or a fragment", s)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	u.RawPath = ""
	return u, nil
}

// GameURL is the address of a game's page under the public URL, as mails
// name it (M43).
func GameURL(publicURL string, id int64) string {
	return strings.TrimSuffix(publicURL, "/") + "/games/" + strconv.FormatInt(id, 10)
}

// requestTimeout bounds the database work of one request.
const requestTimeout = 10 * time.Second

// ServeHTTP answers a request for a page. Only GET and HEAD are served.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	page := "none"
	defer func() {
		if v := recover(); v != nil {
			h.log.Error("web: panic", "path", r.URL.Path, "panic", v)
			if !rec.wrote {
				h.fail(rec, r, fmt.Errorf("panic: %v", v))
			}
		}
		d := time.Since(start)
		if h.metrics != nil {
			h.metrics.PageServed(page, rec.status, d)
		}
		h.log.Debug("web request", "method", r.Method, "path", r.URL.RequestURI(), "status", rec.status,
			"bytes", rec.bytes, "duration", d)
	}()
	securityHeaders(rec.Header())
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		rec.Header().Set("Allow", "GET, HEAD")
		http.Error(rec, "only GET and HEAD are served here", http.StatusMethodNotAllowed)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	var route func(context.Context, *http.Request, string) (*response, error)
	var arg string
	page, route, arg = h.route(h.relative(r.URL.Path))
	if route == nil {
		h.notFound(rec, r, "There is no page at this address.")
		return
	}
	resp, err := route(ctx, r, arg)
	var nf notFoundError
	switch {
	case errors.As(err, &nf):
		h.notFound(rec, r, string(nf))
	case errors.Is(err, errBadRequest):
		h.page(rec, r, http.StatusBadRequest, errorPage("Not a page", err.Error()))
	case err != nil:
		h.fail(rec, r, err)
	default:
		h.send(rec, r, resp)
	}
}

// relative is a request's path below the base of the public URL: the
// pages answer at both, so that a proxy may pass the public path on or
// strip it.
func (h *Handler) relative(path string) string {
	if h.base != "/" && strings.HasPrefix(path, h.base) {
		return "/" + path[len(h.base):]
	}
	return path
}

// route finds the page of a path (M44): its kind, its function and the
// part of the path the function takes (an id or a handle).
func (h *Handler) route(path string) (string, func(context.Context, *http.Request, string) (*response, error), string) {
	switch path {
	case "/":
		return "home", h.home, ""
	case "/ratings":
		return "ratings", h.ratingsPage, ""
	case "/robots.txt":
		return "robots", h.robots, ""
	}
	dir, name, ok := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if !ok || name == "" || strings.Contains(name, "/") {
		return "none", nil, ""
	}
	switch dir {
	case "games":
		if id, ok := strings.CutSuffix(name, ".pgn"); ok {
			return "record", h.record, id
		}
		return "game", h.gamePage, name
	case "players":
		if handle, ok := strings.CutSuffix(name, ".atom"); ok {
			return "feed", h.feed, handle
		}
		return "player", h.playerPage, name
	case "tournaments":
		return "tournament", h.tournamentPage, name
	case "static":
		return "static", h.static, name
	}
	return "none", nil, ""
}

// notFoundError is a page that does not exist, saying which.
type notFoundError string

func (e notFoundError) Error() string { return string(e) }

// errBadRequest is a request for a page that cannot be, like ?ply=x.
var errBadRequest = errors.New("bad request")

// parseID reads a game's or tournament's id from a path: digits only.
func parseID(s, what string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != s {
		return 0, notFoundError(fmt.Sprintf("There is no %s %q.", what, s))
	}
	return id, nil
}

// statusRecorder remembers the status and size of a response.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

func (r *statusRecorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}
