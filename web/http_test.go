package web

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHeaders checks the headers every answer carries: the Content
// Security Policy, which allows no inline script or style, and the rest.
func TestHeaders(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	for _, target := range []string{"/", "/games/1", "/games/1.pgn", "/players/alice.atom", "/games/99", "/robots.txt"} {
		rec := get(h, target)
		for name, want := range map[string]string{
			"Content-Security-Policy": csp,
			"X-Content-Type-Options":  "nosniff",
			"Referrer-Policy":         "same-origin",
			"X-Frame-Options":         "DENY",
		} {
			if got := rec.Header().Get(name); got != want {
				t.Errorf("GET %s: %s = %q, want %q", target, name, got, want)
			}
		}
	}
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
		t.Errorf("the CSP %q allows inline script or style", csp)
	}
	// The pages have no inline script, style attribute or handler, which
	// the CSP would block.
	for _, target := range []string{"/", "/games/2", "/players/alice", "/tournaments/1", "/ratings"} {
		page := mustGet(t, h, target)
		if strings.Contains(page, " style=") || strings.Contains(page, "<style") || strings.Contains(page, " onclick") ||
			strings.Count(page, "<script") != strings.Count(page, `<script src="/static/`) {
			t.Errorf("GET %s has inline style or script, which the CSP blocks", target)
		}
	}
	if ct := get(h, "/players/alice.atom").Header().Get("Content-Type"); ct != "application/atom+xml; charset=utf-8" {
		t.Errorf("the feed's Content-Type = %q", ct)
	}
	rec := get(h, "/static/congo.css")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/css; charset=utf-8" ||
		!strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
		t.Errorf("GET /static/congo.css = %d, %q, %q", rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"))
	}
	rec = get(h, "/robots.txt")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Disallow: /*?ply=") {
		t.Errorf("GET /robots.txt = %d:\n%s", rec.Code, rec.Body)
	}
}

// TestConditionalRequests checks ETag and Last-Modified: a finished
// game's page is the same until it changes, and asked again with its tag
// it is a 304 without a body; a game being played has no Last-Modified
// (its clocks run), but its tag works.
func TestConditionalRequests(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	first := get(h, "/games/1")
	tag, modified := first.Header().Get("ETag"), first.Header().Get("Last-Modified")
	if tag == "" || !strings.HasPrefix(tag, `"`) {
		t.Fatalf("GET /games/1: ETag %q", tag)
	}
	if want := at(4).Format(http.TimeFormat); modified != want {
		t.Errorf("GET /games/1: Last-Modified %q, want %q, when the game ended", modified, want)
	}
	if cc := first.Header().Get("Cache-Control"); cc != "public, max-age=3600" {
		t.Errorf("GET /games/1: Cache-Control %q, want it kept an hour", cc)
	}
	if again := get(h, "/games/1"); again.Header().Get("ETag") != tag {
		t.Errorf("GET /games/1 twice: ETags %q and %q", tag, again.Header().Get("ETag"))
	}
	for _, hd := range [][]string{{"If-None-Match", tag}, {"If-None-Match", `"other", ` + tag}, {"If-Modified-Since", modified}} {
		rec := get(h, "/games/1", hd...)
		if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
			t.Errorf("GET /games/1 with %s: %s = %d, %d bytes; want 304 and none", hd[0], hd[1], rec.Code, rec.Body.Len())
		}
	}
	if rec := get(h, "/games/1", "If-None-Match", `"other"`); rec.Code != http.StatusOK {
		t.Errorf("GET /games/1 with another tag = %d, want 200", rec.Code)
	}
	if rec := get(h, "/games/1.pgn", "If-None-Match", get(h, "/games/1.pgn").Header().Get("ETag")); rec.Code != http.StatusNotModified {
		t.Errorf("GET /games/1.pgn with its tag = %d, want 304", rec.Code)
	}
	playing := get(h, "/games/2")
	if lm := playing.Header().Get("Last-Modified"); lm != "" {
		t.Errorf("GET /games/2, being played: Last-Modified %q, want none", lm)
	}
	if cc := playing.Header().Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("GET /games/2: Cache-Control %q, want no-cache", cc)
	}
	if rec := get(h, "/games/2", "If-None-Match", playing.Header().Get("ETag")); rec.Code != http.StatusNotModified {
		t.Errorf("GET /games/2 with its tag = %d, want 304", rec.Code)
	}
	// An hour later its clock shows less: another page, another tag.
	later, err := New(Config{DB: w.db, PublicURL: "http://congo.example/", Now: func() time.Time { return now.Add(time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	if rec := get(later, "/games/2", "If-None-Match", playing.Header().Get("ETag")); rec.Code != http.StatusOK {
		t.Errorf("GET /games/2 an hour later with the old tag = %d, want 200", rec.Code)
	}
}

// TestGzip checks that a page goes compressed to a client that takes
// gzip, with Vary: Accept-Encoding and a tag of its own, and plain to
// one that does not; small answers go plain.
func TestGzip(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	plain := get(h, "/games/1")
	if plain.Header().Get("Content-Encoding") != "" || plain.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("GET /games/1 without Accept-Encoding: Content-Encoding %q, Vary %q", plain.Header().Get("Content-Encoding"), plain.Header().Get("Vary"))
	}
	zipped := get(h, "/games/1", "Accept-Encoding", "br;q=1.0, gzip;q=0.8")
	if zipped.Header().Get("Content-Encoding") != "gzip" || zipped.Header().Get("Vary") != "Accept-Encoding" {
		t.Fatalf("GET /games/1 with gzip: Content-Encoding %q, Vary %q", zipped.Header().Get("Content-Encoding"), zipped.Header().Get("Vary"))
	}
	if zipped.Header().Get("ETag") == plain.Header().Get("ETag") {
		t.Errorf("the gzip and plain pages have the same ETag %s", plain.Header().Get("ETag"))
	}
	if zipped.Body.Len() >= plain.Body.Len()/2 {
		t.Errorf("gzip made %d bytes of %d", zipped.Body.Len(), plain.Body.Len())
	}
	zr, err := gzip.NewReader(zipped.Body)
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil || string(unzipped) != plain.Body.String() {
		t.Errorf("the gzip page unzipped (%v) is not the plain page", err)
	}
	// The plain tag, sent by a client that takes gzip now, is the same
	// page.
	if rec := get(h, "/games/1", "Accept-Encoding", "gzip", "If-None-Match", plain.Header().Get("ETag")); rec.Code != http.StatusNotModified {
		t.Errorf("GET /games/1 with gzip and the plain tag = %d, want 304", rec.Code)
	}
	if rec := get(h, "/games/1", "Accept-Encoding", "gzip;q=0, identity"); rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("GET /games/1 with gzip;q=0 is compressed")
	}
	if rec := get(h, "/robots.txt", "Accept-Encoding", "gzip"); rec.Header().Get("Content-Encoding") != "" || rec.Header().Get("Vary") != "" {
		t.Errorf("GET /robots.txt (small) with gzip: Content-Encoding %q, Vary %q", rec.Header().Get("Content-Encoding"), rec.Header().Get("Vary"))
	}
}

func TestAcceptsGzip(t *testing.T) {
	t.Parallel()
	for header, want := range map[string]bool{
		"":                        false,
		"gzip":                    true,
		"GZIP":                    true,
		"deflate, gzip":           true,
		"gzip;q=0":                false,
		"gzip; q=0.001":           true,
		"br, *":                   true,
		"*;q=0":                   false,
		"identity":                false,
		"x-gzip":                  true,
		"gzip;q=0, *":             false,
		"deflate;q=0.5, br;q=1.0": false,
	} {
		if got := acceptsGzip(header); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", header, got, want)
		}
	}
}

// TestMethods checks that only GET and HEAD are answered, HEAD without a
// body.
func TestMethods(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(m, "/games/1", strings.NewReader("x")))
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s /games/1 = %d, Allow %q; want 405", m, rec.Code, rec.Header().Get("Allow"))
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/games/1", nil))
	if rec.Code != http.StatusOK || rec.Body.Len() != 0 || rec.Header().Get("Content-Length") == "" {
		t.Errorf("HEAD /games/1 = %d, %d bytes, Content-Length %q", rec.Code, rec.Body.Len(), rec.Header().Get("Content-Length"))
	}
}

// TestBasePath checks pages under a public URL with a path, as behind a
// proxy: their links carry the path, and they answer with it or without.
func TestBasePath(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h, err := New(Config{DB: w.db, PublicURL: "https://example.org/congo", Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/congo/games/1", "/games/1"} {
		page := mustGet(t, h, target)
		if !strings.Contains(page, `href="/congo/players/alice"`) || !strings.Contains(page, `href="/congo/static/congo.css?v=`) {
			t.Errorf("GET %s: links without the base path /congo/", target)
		}
	}
	if feed := mustGet(t, h, "/congo/players/alice.atom"); !strings.Contains(feed, "<id>https://example.org/congo/players/alice</id>") {
		t.Errorf("the feed's id does not name the public URL:\n%s", feed)
	}
	if robots := mustGet(t, h, "/robots.txt"); !strings.Contains(robots, "Disallow: /congo/*?ply=") {
		t.Errorf("robots.txt under /congo/:\n%s", robots)
	}
}

func TestParsePublicURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"http://127.0.0.1:8080":          "http://127.0.0.1:8080/",
		"https://congo.example.org/":     "https://congo.example.org/",
		"https://example.org/congo":      "https://example.org/congo/",
		"https://example.org/congo/web/": "https://example.org/congo/web/",
	} {
		if u, err := ParsePublicURL(in); err != nil || u.String() != want {
			t.Errorf("ParsePublicURL(%q) = %v, %v, want %s", in, u, err, want)
		}
	}
	for _, bad := range []string{"", "congo.example.org", "/games", "ftp://example.org/", "http://", "https://example.org/?x=1",
		"https://example.org/#top", "https://user:pw@example.org/", "http://[::1"} {
		if u, err := ParsePublicURL(bad); err == nil {
			t.Errorf("ParsePublicURL(%q) = %v, want an error", bad, u)
		}
	}
	if got := GameURL("https://example.org/congo/", 42); got != "https://example.org/congo/games/42" {
		t.Errorf("GameURL = %q", got)
	}
}
