package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// A field is one setting as its tags describe it.
type field struct {
	index   int
	key     string
	arg     string
	group   string
	usage   string
	doc     string
	example string
	shown   string
	noFile  bool
}

// fields are the settings in the order of the struct.
var fields = func() []field {
	t := reflect.TypeFor[Settings]()
	var out []field
	for i := range t.NumField() {
		tag := t.Field(i).Tag
		key, ok := tag.Lookup("key")
		if !ok {
			continue
		}
		out = append(out, field{index: i, key: key, arg: tag.Get("arg"), group: tag.Get("group"), usage: tag.Get("usage"),
			doc: tag.Get("doc"), example: tag.Get("example"), shown: tag.Get("shown"), noFile: tag.Get("file") == "no"})
	}
	return out
}()

// Keys returns the keys of every setting, in the order of the struct.
func Keys() []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.key
	}
	return out
}

// InFile reports whether key is a key of the configuration file: a
// setting that is no command.
func InFile(key string) bool {
	for _, f := range fields {
		if f.key == key {
			return !f.noFile
		}
	}
	return false
}

// Flags returns a flag set whose flags set the fields of s, one a
// setting, each with its default as s holds it.
func (s *Settings) Flags(name string, output io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(output)
	v := reflect.ValueOf(s).Elem()
	for _, f := range fields {
		switch p := v.Field(f.index).Addr().Interface().(type) {
		case *string:
			fs.StringVar(p, f.key, *p, f.usage)
		case *int:
			fs.IntVar(p, f.key, *p, f.usage)
		case *int64:
			fs.Int64Var(p, f.key, *p, f.usage)
		case *bool:
			fs.BoolVar(p, f.key, *p, f.usage)
		case *time.Duration:
			fs.DurationVar(p, f.key, *p, f.usage)
		default:
			panic(fmt.Sprintf("config: setting %s has a type %T the flags cannot take", f.key, p))
		}
	}
	return fs
}

// Load reads the settings from args, the environment (getenv) and the
// configuration file that -config names, over the defaults, and returns
// them with the arguments left after the flags (a subcommand and its
// arguments). Flags may come before and after the subcommand's name. A
// flag on the command line wins over the environment, which wins over
// the file, which wins over the default. usage is printed to stderr for
// -help, when the returned error is flag.ErrHelp; a bad flag returns
// ErrUsage; a bad value of the environment or the file a *SettingError.
func Load(args []string, getenv func(string) string, stderr io.Writer, usage func(fs *flag.FlagSet)) (*Settings, []string, error) {
	s := Defaults()
	s.from = map[string]string{}
	fs := s.Flags("congod", stderr)
	if usage != nil {
		fs.Usage = func() { usage(fs) }
	}
	parse := func(args []string) error {
		err := fs.Parse(args)
		if err != nil && !errors.Is(err, flag.ErrHelp) {
			return ErrUsage
		}
		return err
	}
	if err := parse(args); err != nil {
		return nil, nil, err
	}
	rest := fs.Args()
	if len(rest) > 0 {
		// The subcommand's own arguments may hold flags too.
		if err := parse(rest[1:]); err != nil {
			return nil, nil, err
		}
		rest = append([]string{rest[0]}, fs.Args()...)
	}
	fs.Visit(func(f *flag.Flag) { s.from[f.Name] = "-" + f.Name })
	if err := s.applyEnv(fs, getenv); err != nil {
		return nil, nil, err
	}
	if s.Config != "" {
		if err := s.applyFile(fs, s.Config); err != nil {
			return nil, nil, err
		}
	}
	return &s, rest, nil
}

// ErrUsage is a command line that is not understood.
var ErrUsage = errors.New("usage")

// From tells where the setting key came from: "-poll", "CONGO_POLL",
// `FILE: key "poll"`; "" for its default.
func (s *Settings) From(key string) string { return s.from[key] }

// SettingError is a bad setting. Key is its name, which is the name of
// its flag and its key in the configuration file; Where says where the
// bad value came from.
type SettingError struct {
	Key   string
	Where string
	Err   error
}

func (e *SettingError) Error() string { return e.Where + ": " + e.Err.Error() }
func (e *SettingError) Unwrap() error { return e.Err }

// Bad returns a *SettingError for the setting key, saying where its value
// came from.
func (s *Settings) Bad(key string, err error) error {
	where, ok := s.from[key]
	if !ok {
		where = "-" + key
	}
	return &SettingError{Key: key, Where: where, Err: err}
}

// Required is the error of a setting that is missing.
func (s *Settings) Required(key, example string) error {
	return s.Bad(key, fmt.Errorf("required (flag -%s, environment %s or key %s in the -config file), e.g. %s", key, EnvName(key), key, example))
}

// applyEnv sets every flag not given on the command line from its
// environment twin, when that is set.
func (s *Settings) applyEnv(fs *flag.FlagSet, getenv func(string) string) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if _, given := s.from[f.Name]; given || err != nil {
			return
		}
		name := EnvName(f.Name)
		v := getenv(name)
		if v == "" {
			return
		}
		if e := f.Value.Set(v); e != nil {
			err = &SettingError{Key: f.Name, Where: name, Err: badValue(f.Name, v, e)}
			return
		}
		s.from[f.Name] = name
	})
	return err
}

// applyFile sets every flag not set by the command line or the
// environment from the TOML file at path, whose keys are the flag names.
// A key that is no setting, or a value of the wrong type, is an error
// that names the key.
func (s *Settings) applyFile(fs *flag.FlagSet, path string) error {
	var keys map[string]any
	md, err := toml.DecodeFile(path, &keys)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return &SettingError{Key: pe.LastKey, Where: path, Err: errors.New(pe.Error())}
		}
		return &SettingError{Key: "config", Where: "-config", Err: err}
	}
	// In the order of the file, so that the first bad key is reported.
	for _, k := range md.Keys() {
		key := k.String()
		if len(k) != 1 {
			continue // inside a table: reported with the table
		}
		where := fmt.Sprintf("%s: key %q", path, key)
		f := fs.Lookup(key)
		if f == nil || !InFile(key) {
			return &SettingError{Key: key, Where: where, Err: ErrUnknownKey}
		}
		v, err := fileValue(f, keys[key])
		if err != nil {
			return &SettingError{Key: key, Where: where, Err: err}
		}
		if _, set := s.from[key]; set {
			continue
		}
		if err := f.Value.Set(v); err != nil {
			return &SettingError{Key: key, Where: where, Err: badValue(key, v, err)}
		}
		s.from[key] = where
	}
	return nil
}

// badValue is the error of a value that the flag name does not take. Only
// boolean and duration flags refuse values, so v holds no secret.
func badValue(name, v string, err error) error {
	return fmt.Errorf("%q is not a valid value for %s: %w", v, name, err)
}

// ErrUnknownKey is a key of the configuration file that is no setting.
var ErrUnknownKey = errors.New("no such setting")

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

// EnvName is the environment twin of a setting: "trust-authserv" gives
// "CONGO_TRUST_AUTHSERV".
func EnvName(key string) string {
	return "CONGO_" + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
}
