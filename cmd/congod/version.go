package main

import (
	"runtime/debug"
	"strings"
)

// version is the module version and VCS revision the binary was built
// from: "v1.2.0", "v0.0.0-20261129150000-abcdef123456" (go install of a
// commit, which names it) or "(devel) commit abcdef123456+dirty" (a build
// in a work tree).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if rev == "" {
		rev = pseudoRevision(v)
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " commit " + rev + modified
	}
	return v + " " + info.GoVersion
}

// pseudoRevision is the commit named by a pseudo-version
// (v0.0.0-20261129150000-abcdef123456), or "".
func pseudoRevision(v string) string {
	v, _, _ = strings.Cut(v, "+")
	i := strings.LastIndexByte(v, '-')
	if i < 0 || len(v)-i-1 != 12 {
		return ""
	}
	rev := v[i+1:]
	if strings.Trim(rev, "0123456789abcdef") != "" {
		return ""
	}
	return rev
}
