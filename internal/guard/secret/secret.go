// Package secret masks secrets in what mcphost writes down or prints: the
// audit log, the --debug log, warnings, errors and the tool lines on
// stderr. It masks three kinds of things: the values of env vars and
// headers declared in the config (which are known exactly), values stored
// under keys that look like secrets (token, password, api_key, ...), and
// "Bearer …"/"Basic …" credentials wherever they appear in text.
//
// It masks values, not words: what follows a secret-looking key is masked
// only when it is a literal value. A shell expansion ("token=$(cat key)",
// "$TOKEN", "${TOKEN}") names where a secret comes from rather than being
// one, and a word that prose goes on after ("passwd: no such resource")
// is a sentence, so both stay, and the log shows what ran.
package secret

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/mcphost/mcphost/config"
)

// Mask replaces every secret.
const Mask = "***"

// Declared config values shorter than these are left alone: "0" or "warn"
// are settings, not secrets, and masking them everywhere would garble the
// output. A value under a secret-looking key is masked from minSecretLen
// on, any other declared value from minPlainLen on.
const (
	minSecretLen = 3
	minPlainLen  = 8
)

// secretKeySuffixes end the (lower-cased, separator-free) names of keys
// whose values are secrets: GITHUB_TOKEN, x-api-key, client_secret,
// Authorization. "prompt_tokens" does not end in "token", on purpose.
var secretKeySuffixes = []string{
	"token", "secret", "password", "passwd", "passphrase", "apikey", "authorization",
	"auth", "credential", "credentials", "privatekey", "accesskey", "secretkey",
	"cookie", "sessionid", "signature",
}

// IsSecretKey reports whether values stored under key should be masked.
func IsSecretKey(key string) bool {
	k := strings.ToLower(strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', '.', ' ':
			return -1
		}
		return r
	}, key))
	for _, s := range secretKeySuffixes {
		if strings.HasSuffix(k, s) {
			return true
		}
	}
	return false
}

// Patterns for secrets in free text. They are compiled per Masker rather
// than held in package variables, which the project keeps free of state.
const (
	// credentialPattern is an HTTP credential such as "Bearer abc.def":
	// the scheme, the space, then the credential.
	credentialPattern = `(?i)\b(bearer|basic)(\s+)[A-Za-z0-9\-._~+/]{3,}=*`
	// assignmentPattern is key=value or "key": "value" with a
	// secret-looking key (group 1, with the separator), then the value
	// (group 2): a quoted string to its closing quote, or an unquoted
	// run to a space, quote, backslash or separator, with any opening
	// quote (escaped, as in JSON inside a JSON string, or not) in front.
	assignmentPattern = `(?i)([\w.-]*(?:token|secret|password|passwd|passphrase|api[_-]?key|authorization|credentials?|private[_-]?key|access[_-]?key|cookie)(?:\\?["'])?\s*[:=]\s*)("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|(?:\\?["'])?[^\s"'&,;}\]\\]+)`
)

// Masker masks secrets in strings and values. The zero value and nil mask
// only by key and pattern; New adds exact values to mask.
type Masker struct {
	// values are the exact values to mask, longest first, so that a value
	// is masked before its parts; Add replaces the slice, never changes it.
	values     atomic.Pointer[[]string]
	credential *regexp.Regexp
	assignment *regexp.Regexp
}

// New returns a Masker for the given secret values; empty ones are ignored.
func New(values ...string) *Masker {
	m := &Masker{
		credential: regexp.MustCompile(credentialPattern),
		assignment: regexp.MustCompile(assignmentPattern),
	}
	m.Add(values...)
	return m
}

// Add masks values from now on, as if given to New: secrets learnt while
// running (a token a sign-in brought) join the config's. It is safe to
// call while other goroutines mask; on a nil or zero Masker it does
// nothing.
func (m *Masker) Add(values ...string) {
	if m == nil || m.credential == nil {
		return
	}
	for {
		old := m.values.Load()
		var cur []string
		if old != nil {
			cur = *old
		}
		next := slices.Clone(cur)
		for _, v := range values {
			if v != "" && !slices.Contains(next, v) {
				next = append(next, v)
			}
		}
		if len(next) == len(cur) {
			return
		}
		slices.SortFunc(next, func(a, b string) int { return len(b) - len(a) })
		if m.values.CompareAndSwap(old, &next) {
			return
		}
	}
}

// FromServers returns a Masker for the env and header values of specs:
// every value under a secret-looking name, every other value of at least
// eight characters, and the credential part of "Scheme credential" values;
// and for the credentials in URLs (a server's url, or an env value that
// is a URL): the password of "scheme://user:password@host", or a user
// name given without a password ("https://TOKEN@host"), which is how
// tokens are written into URLs.
func FromServers(specs []config.ServerSpec) *Masker {
	return New(serverValues(specs)...)
}

// FromSettings is FromServers for all the secrets of s: the servers' env
// and header values, and the model engines' API keys and header values
// (--provider-api-key or OPENAI_API_KEY, and each "providers" entry's).
func FromSettings(s *config.Settings) *Masker {
	values := serverValues(s.Servers)
	engines := []config.Engine{{APIKey: s.ProviderAPIKey}}
	engines = append(engines, s.Providers...)
	for _, e := range engines {
		if k := strings.TrimSpace(e.APIKey); len(k) >= minSecretLen {
			values = append(values, k)
		}
		values = append(values, serverValues([]config.ServerSpec{{Headers: e.Headers}})...)
	}
	return New(values...)
}

// serverValues are the values FromServers masks.
func serverValues(specs []config.ServerSpec) []string {
	var values []string
	add := func(key, v string) {
		v = strings.TrimSpace(v)
		if len(v) >= minPlainLen || (IsSecretKey(key) && len(v) >= minSecretLen) {
			values = append(values, v)
		}
		// "Bearer xyz": xyz alone is the secret, and may be printed alone.
		scheme, cred, ok := strings.Cut(v, " ")
		if ok && (IsSecretKey(key) || isScheme(scheme)) {
			if cred = strings.TrimSpace(cred); len(cred) >= minSecretLen {
				values = append(values, cred)
			}
		}
	}
	for _, s := range specs {
		for k, v := range s.Env {
			add(k, v)
			values = append(values, urlSecrets(v)...)
		}
		for k, v := range s.Headers {
			add(k, v)
		}
		values = append(values, urlSecrets(s.URL)...)
		if s.OAuth != nil {
			add("client_secret", s.OAuth.ClientSecret)
		}
	}
	return values
}

// urlSecrets returns the credentials in the user information of a URL, as
// decoded and as written (percent-encoded), or nothing when s is not a
// URL with user information.
func urlSecrets(s string) []string {
	if !strings.Contains(s, "@") {
		return nil
	}
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.User == nil {
		return nil
	}
	var out []string
	addBoth := func(decoded string, minLen int) {
		if len(decoded) < minLen {
			return
		}
		out = append(out, decoded)
		// As written in the URL: the text between the markers of the
		// user information, which may be percent-encoded.
		if enc := url.PathEscape(decoded); enc != decoded {
			out = append(out, enc)
		}
		if enc := url.QueryEscape(decoded); enc != decoded {
			out = append(out, enc)
		}
	}
	if pw, ok := u.User.Password(); ok {
		addBoth(pw, minSecretLen)
		if raw := rawPassword(s); raw != "" && raw != pw {
			out = append(out, raw)
		}
	} else {
		// A user name alone is a token more often than a name.
		addBoth(u.User.Username(), minPlainLen)
	}
	return out
}

// rawPassword is the password of URL s exactly as written, escapes and
// all, for the rare spelling that neither PathEscape nor QueryEscape
// reproduces.
func rawPassword(s string) string {
	_, rest, ok := strings.Cut(s, "://")
	if !ok {
		return ""
	}
	authority, _, _ := strings.Cut(rest, "/")
	at := strings.LastIndex(authority, "@")
	if at < 0 {
		return ""
	}
	_, pw, ok := strings.Cut(authority[:at], ":")
	if !ok || len(pw) < minSecretLen {
		return ""
	}
	return pw
}

// ready returns m with its patterns compiled: m itself, or for nil and
// the zero value a new Masker, which Value then uses for every string of
// the value rather than compiling the patterns for each.
func (m *Masker) ready() *Masker {
	if m == nil || m.credential == nil {
		return New()
	}
	return m
}

// String masks the secrets in s.
func (m *Masker) String(s string) string {
	if s == "" {
		return s
	}
	m = m.ready()
	if values := m.values.Load(); values != nil {
		for _, v := range *values {
			s = strings.ReplaceAll(s, v, Mask)
		}
	}
	s = m.maskCredentials(s)
	return m.maskAssignments(s)
}

// maskCredentials masks the credential of "Bearer …" and "Basic …", but
// not the word after them in a sentence ("a Bearer token is needed").
func (m *Masker) maskCredentials(s string) string {
	found := m.credential.FindAllStringSubmatchIndex(s, -1)
	if found == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, at := range found {
		cred := s[at[5]:at[1]]
		if isProse(cred, s[at[1]:]) {
			continue
		}
		b.WriteString(s[last:at[5]])
		b.WriteString(Mask)
		last = at[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// maskAssignments masks the literal values after secret-looking keys in
// s, and leaves what is not a value: an expansion, a word of prose.
func (m *Masker) maskAssignments(s string) string {
	found := m.assignment.FindAllStringSubmatchIndex(s, -1)
	if found == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, at := range found {
		sep := s[at[2]:at[3]]
		open, value, closing := splitQuotes(s[at[4]:at[5]])
		b.WriteString(s[last:at[4]])
		b.WriteString(open)
		// A value spaced from its key and not quoted is read as prose
		// when it is a plain word that more words follow.
		spaced := open == "" && strings.TrimRightFunc(sep, unicode.IsSpace) != sep
		masked := strings.Contains(value, Mask) // by the rules before
		if !masked && isLiteral(value) && !(spaced && isProse(value, s[at[5]:])) && !isPlaceholderDefault(s, at) {
			b.WriteString(Mask)
		} else {
			b.WriteString(value)
		}
		b.WriteString(closing)
		last = at[5]
	}
	b.WriteString(s[last:])
	return b.String()
}

// PlaceholderDefault is the default that mcphost's hints write in an
// expansion, "${NAME:-default}": a word standing for the value the user
// would choose, not a value, so it is not masked even after a
// secret-looking name. Any other default ("${API_KEY:-sk-123}") is a
// value written out, and masked.
const PlaceholderDefault = "default"

// isPlaceholderDefault reports whether the assignment match at of s is
// the default of an expansion, "${NAME:-default}", the default being
// PlaceholderDefault.
func isPlaceholderDefault(s string, at []int) bool {
	return at[2] >= 2 && s[at[2]-2:at[2]] == "${" && strings.HasSuffix(s[at[2]:at[3]], ":") &&
		s[at[4]:at[5]] == "-"+PlaceholderDefault && strings.HasPrefix(s[at[5]:], "}")
}

// splitQuotes splits a matched value into its opening quote (escaped or
// not), the value and its closing quote.
func splitQuotes(v string) (open, value, closing string) {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[:1], v[1 : len(v)-1], v[len(v)-1:]
	}
	for _, q := range []string{`\"`, `\'`, `"`, `'`} {
		if rest, ok := strings.CutPrefix(v, q); ok {
			return q, rest, ""
		}
	}
	return "", v, ""
}

// isLiteral reports whether v, found where a secret would be, is a value
// written out rather than a reference to one: not empty, not a
// credential that its scheme masks ("Bearer …", whose scheme is kept),
// not a shell or template expansion. An expansion names where a secret comes from,
// which the log shows so that it says what ran.
func isLiteral(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return false
	}
	if scheme, _, _ := strings.Cut(v, " "); strings.EqualFold(scheme, "bearer") || strings.EqualFold(scheme, "basic") {
		return false
	}
	return !isExpansion(v)
}

// isExpansion reports whether v starts as a shell, Windows or template
// expansion does: $(…), ${…}, $NAME, `…`, %NAME%, {{…}}.
func isExpansion(v string) bool {
	switch {
	case strings.HasPrefix(v, "$(") || strings.HasPrefix(v, "${") || strings.HasPrefix(v, "`") || strings.HasPrefix(v, "{{"):
		return true
	case len(v) > 1 && v[0] == '$':
		return isNameStart(rune(v[1]))
	case len(v) > 2 && v[0] == '%':
		name, _, ok := strings.Cut(v[1:], "%")
		return ok && name != "" && isNameStart(rune(name[0])) && strings.IndexFunc(name, func(r rune) bool { return !isNameRune(r) }) < 0
	}
	return false
}

// isWord reports whether w is spelt as a word of prose is: letters, in
// lower case, capitalised or all capitals, not mixed as encoded
// credentials are ("dXNlcjpw").
func isWord(w string) bool {
	if w == "" || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) >= 0 {
		return false
	}
	first, size := utf8.DecodeRuneInString(w)
	rest := w[size:]
	return rest == strings.ToLower(rest) || (unicode.IsUpper(first) && rest == strings.ToUpper(rest))
}

func isNameStart(r rune) bool { return r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') }
func isNameRune(r rune) bool  { return isNameStart(r) || ('0' <= r && r <= '9') }

// isProse reports whether value, followed by rest, is a word of a
// sentence rather than a value: letters only (a sentence's punctuation
// aside) and another word follows. "passwd: no such resource" is prose;
// "password: hunter2 was refused" and "token: abc" at the end of a line
// are not. Secrets are rarely one plain word that a sentence goes on
// after, and the values the config declares are masked whatever they
// look like.
func isProse(value, rest string) bool {
	word := strings.TrimRight(value, ".,:;!?)")
	if !isWord(word) {
		return false
	}
	next := strings.TrimLeft(rest, ".,:;!?)")
	trimmed := strings.TrimLeftFunc(next, unicode.IsSpace)
	if trimmed == next || trimmed == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(trimmed)
	return unicode.IsLetter(r)
}

// Value returns a copy of v (decoded JSON: maps, slices, strings, numbers)
// with secrets masked: the values of secret-looking keys entirely, strings
// through String. v itself is not modified.
func (m *Masker) Value(v any) any {
	return walker(m.ready().String).value(v)
}

// ValueWith is Value with mask for the strings: for code that has another
// Masker's String (a host's Mask, which also knows the secrets learnt
// while running) rather than the Masker. Secret-looking keys are masked
// as Value masks them.
func ValueWith(v any, mask func(string) string) any {
	return walker(mask).value(v)
}

// walker masks decoded values with its function for strings.
type walker func(string) string

func (m walker) value(v any) any {
	switch x := v.(type) {
	case string:
		return m(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			if IsSecretKey(k) {
				out[k] = m.under(val)
				continue
			}
			out[k] = m.value(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = m.value(val)
		}
		return out
	case []string:
		out := make([]string, len(x))
		for i, val := range x {
			out[i] = m(val)
		}
		return out
	case map[string]string:
		out := make(map[string]string, len(x))
		for k, val := range x {
			if IsSecretKey(k) {
				out[k] = m.underString(val)
				continue
			}
			out[k] = m(val)
		}
		return out
	}
	return v
}

// under masks a value stored under a secret-looking key: each literal in
// it, a string or a number, however deep, so that the log keeps the
// shape of what was sent (which keys an object had, that a value was an
// expansion such as "$(cat key)") without any of the values. true, false
// and null are not secrets and stay.
func (m walker) under(v any) any {
	switch x := v.(type) {
	case string:
		return m.underString(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[k] = m.under(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = m.under(val)
		}
		return out
	case []string:
		out := make([]string, len(x))
		for i, val := range x {
			out[i] = m.underString(val)
		}
		return out
	case map[string]string:
		out := make(map[string]string, len(x))
		for k, val := range x {
			out[k] = m.underString(val)
		}
		return out
	case nil, bool:
		return v
	}
	// A number, or a value of a type that decoded JSON does not hold.
	return Mask
}

// underString is under for a string: masked when it is a literal, and
// an expansion masked as any text is.
func (m walker) underString(s string) string {
	if isLiteral(s) {
		return Mask
	}
	return m(s)
}

// Map is Value for the arguments of a tool call.
func (m *Masker) Map(args map[string]any) map[string]any {
	if args == nil {
		return nil
	}
	return m.Value(args).(map[string]any)
}

// isScheme reports whether word starts an HTTP credential.
func isScheme(word string) bool {
	switch strings.ToLower(word) {
	case "bearer", "basic", "token":
		return true
	}
	return false
}
