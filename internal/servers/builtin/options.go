package builtin

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/spell"
)

// decodeOptions fills dst, a pointer to an options struct with json tags,
// from spec.Options. Keys match loosely (allowed_directories,
// allowedDirectories and allowed-directories are one key), as in the rest
// of the config; an unknown key is an error naming the known ones.
func decodeOptions(spec config.ServerSpec, dst any) error {
	fail := func(field, format string, args ...any) error {
		f := "options"
		if field != "" {
			f += "." + field
		}
		return &config.Error{File: spec.Source, Server: spec.Name, Field: f,
			Message: fmt.Sprintf("%s: %s", f, fmt.Sprintf(format, args...))}
	}
	t := reflect.TypeOf(dst).Elem()
	known := map[string]string{} // normalised key → json name
	var names []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		known[spell.FoldKey(name)] = name
		names = append(names, name)
	}
	sort.Strings(names)
	renamed := make(map[string]any, len(spec.Options))
	for k, v := range spec.Options {
		name, ok := known[spell.FoldKey(k)]
		if !ok {
			if len(names) == 0 {
				return fail(k, "the %s server takes no options: remove it", spec.Builtin)
			}
			return fail(k, "unknown option for the %s server: use %s", spec.Builtin, strings.Join(names, ", "))
		}
		renamed[name] = v
	}
	raw, err := json.Marshal(renamed)
	if err != nil {
		return fail("", "cannot be read: %v", err)
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return fail(te.Field, "must be %s", describeType(te.Type))
		}
		return fail("", "%v", err)
	}
	return nil
}

func describeType(t reflect.Type) string {
	if t == reflect.TypeOf(Duration(0)) {
		return `a number of seconds or a duration such as "30s"`
	}
	switch t.Kind() {
	case reflect.Slice:
		return "a list of " + strings.TrimPrefix(describeType(t.Elem()), "a ") + "s"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Bool:
		return "true or false"
	}
	return "a " + t.String()
}

// Duration is an option given as seconds (30) or as a Go duration ("30s",
// "2m").
type Duration time.Duration

// UnmarshalJSON reads seconds or a duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	bad := &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeOf(Duration(0))}
	var secs float64
	if err := json.Unmarshal(b, &secs); err == nil {
		if secs <= 0 {
			return bad
		}
		*d = Duration(secs * float64(time.Second))
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return bad
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && f > 0 {
		*d = Duration(f * float64(time.Second))
		return nil
	}
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || v <= 0 {
		return bad
	}
	*d = Duration(v)
	return nil
}
