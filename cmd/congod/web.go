package main

import (
	"context"
	"fmt"
	"github.com/congobymail/congo/config"
	"golang.org/x/net/netutil"
	"log/slog"
	"net"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/web"
)

// webListener is the listener of the web pages (-web), and the address
// players reach them at (-public-url, or one made of the listener's).
type webListener struct {
	ln        net.Listener
	publicURL string
}

// openWeb listens for the web pages on -web and works out their public
// URL: -public-url, or http:// and the address listened on, which for a
// host left open (":8080", "0.0.0.0:8080") is named localhost, with a
// warning, as no mail should name an address that means "any".
func (c *settings) openWeb(logger *slog.Logger) (*webListener, error) {
	ln, err := net.Listen("tcp", c.Web)
	if err != nil {
		return nil, fmt.Errorf("-web: %w (give another address with -web HOST:PORT, or -web off)", err)
	}
	public, open := c.Pages(ln.Addr().String())
	if open {
		logger.Warn("-public-url is not set and -web listens on every address: links in mails name localhost",
			"web", c.Web)
	}
	u, err := web.ParsePublicURL(public)
	if err != nil {
		ln.Close()
		return nil, c.Bad("public-url", err)
	}
	n := c.WebConnections
	if n <= 0 {
		n = config.DefaultWebConnections // settings made in a test
	}
	logger.Info("serving the web pages", "addr", ln.Addr().String(), "public_url", u.String(), "connections", n)
	// At most n connections at once (M57): the others wait to be
	// accepted, and hold none of the process's open files meanwhile.
	return &webListener{ln: netutil.LimitListener(ln, n), publicURL: u.String()}, nil
}

// pages is the address of the web pages that mails name: the listener's
// once it is open; before, or without it (congod admin), the one the
// settings give; "" when the pages are off.
func (c *settings) pages() string {
	if c.web != nil {
		return c.web.publicURL
	}
	public, _ := c.Pages("")
	if public == "" {
		return ""
	}
	u, err := web.ParsePublicURL(public)
	if err != nil {
		return ""
	}
	return u.String()
}

// webLoop is the loop that serves the web pages of store on wl until
// its context ends.
func webLoop(wl *webListener, store *db.DB, site string, logger *slog.Logger, mon *monitor) (loop, error) {
	h, err := web.New(web.Config{DB: store, PublicURL: wl.publicURL, Site: site, Now: serverClock,
		Logger: logger.With("component", "web"), Metrics: mon})
	if err != nil {
		return loop{}, err
	}
	return loop{"web", func(ctx context.Context) error {
		// The rating charts' replay, made while the first requests come,
		// and done (or cut short) before the loop returns: the store is
		// closed after.
		warmed := make(chan struct{})
		go func() {
			defer close(warmed)
			if err := h.Warm(ctx); err != nil && ctx.Err() == nil {
				logger.Warn("web: replaying the ratings failed", "err", err)
			}
		}()
		err := serveHTTP(ctx, wl.ln, h, logger)
		<-warmed
		return err
	}}, nil
}
