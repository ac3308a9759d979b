package web

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestPrivacy renders every page of a world whose players have
// addresses, secrets, messages sent with their moves and conditional
// moves, following every link from the home page and asking for every
// game, position, record, player, feed and tournament besides, and fails
// if any of those appears, or any mail address but the server's (M46).
func TestPrivacy(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	targets := []string{"/", "/ratings", "/robots.txt", "/tournaments/1", "/tournaments/2"}
	for id := 1; id <= 9; id++ {
		targets = append(targets, fmt.Sprintf("/games/%d", id), fmt.Sprintf("/games/%d.pgn", id))
		for ply := 0; ply <= 4; ply++ {
			targets = append(targets, fmt.Sprintf("/games/%d?ply=%d", id, ply))
		}
	}
	for handle := range w.players {
		targets = append(targets, "/players/"+handle, "/players/"+handle+".atom")
	}
	link := regexp.MustCompile(`(?:href|src)="(/[^"]*)"`)
	address := regexp.MustCompile(`[\w.+-]+@[\w-]+(?:\.[\w-]+)+`)
	seen := map[string]bool{}
	pages := 0
	for len(targets) > 0 {
		target := strings.ReplaceAll(targets[0], "&amp;", "&")
		targets = targets[1:]
		if seen[target] {
			continue
		}
		seen[target] = true
		rec := get(h, target)
		if rec.Code != http.StatusOK && rec.Code != http.StatusNotFound {
			t.Errorf("GET %s = %d", target, rec.Code)
		}
		pages++
		body := rec.Body.String()
		lower := strings.ToLower(body)
		for _, s := range w.secrets {
			if strings.Contains(lower, strings.ToLower(s)) {
				t.Errorf("GET %s shows %q, which is private", target, s)
			}
		}
		for _, a := range address.FindAllString(body, -1) {
			if a != "congo@example.org" {
				t.Errorf("GET %s shows the address %q", target, a)
			}
		}
		for k, vs := range rec.Header() {
			for _, v := range vs {
				for _, s := range w.secrets {
					if strings.Contains(strings.ToLower(v), strings.ToLower(s)) {
						t.Errorf("GET %s: header %s shows %q", target, k, s)
					}
				}
			}
		}
		for _, m := range link.FindAllStringSubmatch(body, -1) {
			targets = append(targets, m[1])
		}
	}
	if pages < 80 {
		t.Errorf("read %d pages, want every page of the world (80 or more)", pages)
	}
	t.Logf("read %d pages", pages)
}
