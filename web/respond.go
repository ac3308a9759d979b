package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// response is a page ready to send: its body, whole, so that its ETag is
// known before it goes and a failure while rendering can still be an
// error page.
type response struct {
	status      int    // default 200
	contentType string // default HTML
	body        []byte
	// modified is when the page last changed, for Last-Modified; zero
	// when it changes by itself (a clock running), or is not known.
	modified time.Time
	// cache is the Cache-Control; default "no-cache": kept, but asked
	// again every time (the ETag then saves sending it).
	cache string
}

const htmlType = "text/html; charset=utf-8"

// csp allows the page's own stylesheet, script and images, and nothing
// else: no inline script or style, no frames, no forms.
const csp = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// securityHeaders sets the headers every answer carries.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
}

// send writes a response: with an ETag of its body (a 304 when the
// request's If-None-Match names it), Last-Modified when known,
// compressed with gzip when the client takes it and it is worth it.
func (h *Handler) send(w http.ResponseWriter, r *http.Request, resp *response) {
	hd := w.Header()
	ct := resp.contentType
	if ct == "" {
		ct = htmlType
	}
	hd.Set("Content-Type", ct)
	cache := resp.cache
	if cache == "" {
		cache = "no-cache"
	}
	hd.Set("Cache-Control", cache)
	body := resp.body
	sum := sha256.Sum256(body)
	tag := base64.RawURLEncoding.EncodeToString(sum[:18])
	compress := len(body) >= minGzip
	if compress {
		hd.Add("Vary", "Accept-Encoding")
	}
	if compress && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		body = gzipped(body)
		hd.Set("Content-Encoding", "gzip")
		tag += "-gz" // another representation, another tag
	}
	hd.Set("ETag", `"`+tag+`"`)
	if resp.status != 0 && resp.status != http.StatusOK {
		hd.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(resp.status)
		if r.Method != http.MethodHead {
			w.Write(body)
		}
		return
	}
	// ServeContent answers If-None-Match (comparing ETags weakly, so that
	// the plain and the gzip tags match each other), If-Modified-Since,
	// Range and HEAD.
	if strings.HasSuffix(tag, "-gz") {
		plain := `"` + strings.TrimSuffix(tag, "-gz") + `"`
		if inm := r.Header.Get("If-None-Match"); strings.Contains(inm, plain) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	http.ServeContent(w, r, "", resp.modified, bytes.NewReader(body))
}

// minGzip is the smallest body worth compressing: below it the gzip
// header and the client's work cost more than they save.
const minGzip = 1024

// acceptsGzip reports whether an Accept-Encoding header takes gzip: it
// names gzip (or x-gzip, or *) without q=0.
func acceptsGzip(header string) bool {
	star := false
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(k, "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch coding {
		case "gzip", "x-gzip":
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}

var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	return w
}}

// gzipped compresses b.
func gzipped(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b) / 4)
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(&out)
	zw.Write(b)
	zw.Close()
	gzipWriters.Put(zw)
	return out.Bytes()
}

// fail answers a request whose page could not be made: a plain error page
// (the error is logged, never shown).
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	h.log.Error("web: page failed", "path", r.URL.Path, "err", err)
	h.page(w, r, http.StatusInternalServerError, errorPage("Something went wrong",
		"This page could not be made just now. Please try again in a moment."))
}

// notFound answers with the 404 page, saying what is not there.
func (h *Handler) notFound(w http.ResponseWriter, r *http.Request, what string) {
	h.page(w, r, http.StatusNotFound, errorPage("Not found", what))
}

// page renders and sends an error page.
func (h *Handler) page(w http.ResponseWriter, r *http.Request, status int, p pageData) {
	b, err := h.render("error", p)
	if err != nil {
		h.log.Error("web: error page failed", "err", err)
		http.Error(w, http.StatusText(status), status)
		return
	}
	h.send(w, r, &response{status: status, body: b, cache: "no-store"})
}

// errorPage is the data of an error page.
func errorPage(title, text string) pageData {
	return pageData{Title: title, NoIndex: true, Data: text}
}

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// pageData is what the layout of every page gets: the page's title, its
// own data, and what goes in its head.
type pageData struct {
	Title   string
	Feed    string // the address of the page's Atom feed, if any
	NoIndex bool   // not for search engines: a game's past positions, errors
	Script  bool   // the page steps through a game with the arrow keys
	Data    any
	// Set by render.
	Base, Site string
	Static     map[string]string // the address of each static file, with its version
}

// pages are the page templates, each parsed with the layout.
var pages = func() map[string]*template.Template {
	funcs := template.FuncMap{"day": day, "moment": moment, "duration": duration}
	layout := template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html"))
	out := map[string]*template.Template{}
	names, _ := fs.Glob(templateFiles, "templates/*.html")
	for _, n := range names {
		name := strings.TrimSuffix(path.Base(n), ".html")
		if name == "layout" {
			continue
		}
		out[name] = template.Must(template.Must(layout.Clone()).ParseFS(templateFiles, n))
	}
	return out
}()

// render renders the page of template name with the layout.
func (h *Handler) render(name string, p pageData) ([]byte, error) {
	t, ok := pages[name]
	if !ok {
		return nil, fmt.Errorf("no template %q", name)
	}
	p.Base, p.Site, p.Static = h.base, h.site, staticURLs(h.base)
	var b bytes.Buffer
	b.Grow(32 << 10)
	if err := t.ExecuteTemplate(&b, "layout.html", p); err != nil {
		return nil, fmt.Errorf("render %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// staticVersions are a short hash of each static file, put in its address
// (?v=...) so that it may be cached for good: a new version has a new
// address.
var staticVersions = func() map[string]string {
	out := map[string]string{}
	entries, _ := fs.ReadDir(staticFiles, "static")
	for _, e := range entries {
		b, _ := staticFiles.ReadFile("static/" + e.Name())
		sum := sha256.Sum256(b)
		out[e.Name()] = base64.RawURLEncoding.EncodeToString(sum[:6])
	}
	return out
}()

// staticURLs are the addresses of the static files under base, by name.
func staticURLs(base string) map[string]string {
	out := make(map[string]string, len(staticVersions))
	for name, v := range staticVersions {
		out[name] = base + "static/" + name + "?v=" + v
	}
	return out
}

// static serves the stylesheet, the script and the icon.
func (h *Handler) static(_ context.Context, _ *http.Request, name string) (*response, error) {
	b, err := staticFiles.ReadFile("static/" + name)
	if err != nil || strings.Contains(name, "/") {
		return nil, notFoundError("There is no such file.")
	}
	return &response{body: b, contentType: mime.TypeByExtension(path.Ext(name)),
		cache: "public, max-age=31536000, immutable"}, nil
}

// robotsTxt lets search engines read the pages, but not every past
// position of every game, nor the feeds and records.
const robotsTxt = `User-agent: *
Disallow: /*?ply=
Disallow: /*.atom$
Disallow: /*.pgn$
`

func (h *Handler) robots(context.Context, *http.Request, string) (*response, error) {
	text := strings.ReplaceAll(robotsTxt, "/*", h.base+"*")
	return &response{body: []byte(text), contentType: "text/plain; charset=utf-8", cache: "public, max-age=86400"}, nil
}
