package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// notInFile are the flags that are commands or belong to the demo: they
// have no key in the configuration file.
var notInFile = map[string]bool{
	"config": true, "check-config": true, "version": true,
	"demo": true, "demo-imap": true, "demo-smtp": true,
}

// applyEnv sets every flag not given on the command line from its
// environment twin, when that is set.
func (c *config) applyEnv(fs *flag.FlagSet, getenv func(string) string) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if _, given := c.from[f.Name]; given || err != nil {
			return
		}
		name := envName(f.Name)
		v := getenv(name)
		if v == "" {
			return
		}
		if e := f.Value.Set(v); e != nil {
			err = &settingError{Key: f.Name, Where: name, Err: badValue(f.Name, v, e)}
			return
		}
		c.from[f.Name] = name
	})
	return err
}

// applyFile sets every flag not set by the command line or the
// environment from the TOML file at path, whose keys are the flag names.
// A key that is no setting, or a value of the wrong type, is an error
// that names the key.
func (c *config) applyFile(fs *flag.FlagSet, path string) error {
	var keys map[string]any
	md, err := toml.DecodeFile(path, &keys)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return &settingError{Key: pe.LastKey, Where: path, Err: errors.New(pe.Error())}
		}
		return &settingError{Key: "config", Where: "-config", Err: err}
	}
	// In the order of the file, so that the first bad key is reported.
	for _, k := range md.Keys() {
		key := k.String()
		if len(k) != 1 {
			continue // inside a table: reported with the table
		}
		where := fmt.Sprintf("%s: key %q", path, key)
		f := fs.Lookup(key)
		if f == nil || notInFile[key] {
			return &settingError{Key: key, Where: where, Err: errUnknownKey}
		}
		v, err := fileValue(f, keys[key])
		if err != nil {
			return &settingError{Key: key, Where: where, Err: err}
		}
		if _, set := c.from[key]; set {
			continue
		}
		if err := f.Value.Set(v); err != nil {
			return &settingError{Key: key, Where: where, Err: badValue(key, v, err)}
		}
		c.from[key] = where
	}
	return nil
}

// badValue is the error of a value that the flag name does not take. Only
// boolean and duration flags refuse values, so v holds no secret.
func badValue(name, v string, err error) error {
	return fmt.Errorf("%q is not a valid value for %s: %w", v, name, err)
}

// errUnknownKey is a key of the configuration file that is no setting.
var errUnknownKey = errors.New("no such setting")

// fileValue turns the value of a key of the configuration file into the
// text its flag takes: a boolean for a boolean flag, an integer (or a
// string of one) for a number, a string otherwise (durations are strings
// like "1m").
func fileValue(f *flag.Flag, v any) (string, error) {
	var want any
	if g, ok := f.Value.(flag.Getter); ok {
		want = g.Get()
	}
	switch want.(type) {
	case bool:
		bv, ok := v.(bool)
		if !ok {
			return "", fmt.Errorf("want true or false, not %s", tomlType(v))
		}
		return strconv.FormatBool(bv), nil
	case int, int64, uint, uint64:
		switch v := v.(type) {
		case int64:
			return strconv.FormatInt(v, 10), nil
		case string:
			return v, nil
		}
		return "", fmt.Errorf("want a whole number, not %s", tomlType(v))
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("want a quoted string, not %s", tomlType(v))
	}
	return s, nil
}

func tomlType(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a number"
	case string:
		return "a string"
	case map[string]any:
		return "a table"
	case []any, []map[string]any:
		return "an array"
	}
	return fmt.Sprintf("a %T", v)
}

// envName is the environment twin of a flag: "trust-authserv" gives
// "CONGO_TRUST_AUTHSERV".
func envName(flagName string) string {
	return "CONGO_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}
