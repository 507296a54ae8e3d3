package configload

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/userdirs"
)

// envPrefix starts the environment variables that set mcphost's settings.
const envPrefix = "MCPHOST_"

// LoadOptions says where Load looks. The zero value reads the real
// environment, working directory and home directory.
type LoadOptions struct {
	// Flags is a set on which RegisterFlags was called, already parsed; nil
	// means no flags were given.
	Flags *pflag.FlagSet
	// WorkDir holds the project config files; empty means os.Getwd.
	WorkDir string
	// HomeDir holds the user config files and is ${HOME}; empty means
	// os.UserHomeDir.
	HomeDir string
	// ConfigDir holds the user's config.yml (.yaml, .json), read after the
	// files in HomeDir; empty means the platform's (userdirs.For(HomeDir).Config).
	ConfigDir string
	// Env looks up MCPHOST_* settings and the variables expanded in server
	// fields; nil means os.LookupEnv.
	Env func(string) (string, bool)

	// Script holds the settings of a script file's front matter, keyed as
	// in a config file: a layer above MCPHOST_* and the files, below the
	// flags. ScriptFile is the script's path, for errors and for a
	// relative system-prompt path.
	Script     map[string]any
	ScriptFile string
	// Servers, when not nil, replaces the servers of the config files and
	// the default one (a script's own mcpServers, an ad-hoc --url server).
	Servers []config.ServerSpec
	// DefaultServer asks for the mcphost command's default: when no file
	// defines mcpServers (and Servers is nil), the built-in fs server on
	// WorkDir (config.DefaultServerName). Without it, no server is
	// configured then: a program starts what it asked for and nothing else.
	DefaultServer bool

	// ConfigFile, when not empty and no --config flag was given, is read
	// instead of the usual config files, as --config would be.
	ConfigFile string
	// Isolated reads no config files (but ConfigFile) and no MCPHOST_* or
	// OLLAMA_HOST variables: only the defaults and what is given here, for
	// programs that configure everything themselves.
	Isolated bool
	// TrustProject uses the project config files of the working directory
	// whether or not the user trusts them, as --trust-project and
	// MCPHOST_TRUST_PROJECT=1 do: for CI, or after asking the user.
	TrustProject bool
	// TrustFile is the record of trusted project files; empty means
	// TrustFile(HomeDir, Env), in the user's state directory.
	TrustFile string
	// ScriptPath names a script file to run ("mcphost script FILE"): its
	// front matter becomes the Script layer, its mcpServers (if any)
	// replace the config's, and its prompt is the Prompt unless -p gives
	// one. ScriptArgs holds its --args:NAME values.
	ScriptPath string
	ScriptArgs map[string]string
}

// Load gathers the settings with this precedence: flags, then a script's
// settings (LoadOptions.Script), then MCPHOST_* environment variables, then
// the project config file, then the user config file, then defaults. MCP
// servers are merged by name: a project file's entry replaces the user
// file's entry of the same name as a whole. Project files are read only
// when trusted (see TrustStore; the others are listed in
// Settings.Untrusted); their approval rules can only make the user's
// stricter, and their yolo is refused (Settings.Warnings). When no
// file defines mcpServers, Servers is empty, or with
// LoadOptions.DefaultServer the built-in fs server on the working
// directory (config.DefaultServerName); an empty mcpServers object means none.
// Every problem in the user's input is returned as an *Error.
func Load(opts LoadOptions) (*config.Settings, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	adhoc, err := AdhocServer(o.flagString(keyURL), o.flagString(keyStdio))
	if err != nil {
		return nil, err
	}
	if err := o.adhocOAuth(adhoc); err != nil {
		return nil, err
	}
	if adhoc != nil {
		o.Servers = []config.ServerSpec{*adhoc}
	}
	script, err := o.readScript()
	if err != nil {
		return nil, err
	}
	files, untrusted, skipped, err := o.readFiles()
	if err != nil {
		return nil, err
	}
	warnings := append(o.scriptWarnings(script), skipped...)
	warnings = append(warnings, refuseProjectYolo(files)...)
	for _, f := range files {
		warnings = append(warnings, f.warnings...)
	}
	v, origins := o.layer(files)

	s := &config.Settings{}
	g := getter{v: v, origins: origins, o: &o}
	s.Model = g.str(keyModel)
	s.Prompt = g.str(keyPrompt)
	s.OllamaHost = g.str(keyOllamaHost)
	s.ProviderURL = g.str(keyProviderURL)
	s.ProviderAPIKey = g.str(keyProviderAPIKey)
	s.Pull = g.boolean(keyPull)
	s.SystemPrompt = g.str(keySystemPrompt)
	s.Output = g.str(keyOutput)
	s.MaxSteps = g.integer(keyMaxSteps)
	s.NumCtx = g.integer(keyNumCtx)
	s.MaxResultBytes = g.integer(keyMaxResultBytes)
	s.MaxReplyBytes = g.integer(keyMaxReplyBytes)
	s.ModelIdleTimeout = g.duration(keyModelIdleTimeout)
	s.ServerWait = g.duration(keyServerWait)
	s.ModelTimeout = g.duration(keyModelTimeout)
	s.MaxStdinBytes = g.integer(keyMaxStdinBytes)
	s.MaxParallelTools = g.integer(keyMaxParallelTools)
	s.MaxToolCalls = g.integer(keyMaxToolCalls)
	s.Quiet = g.boolean(keyQuiet)
	s.Debug = g.boolean(keyDebug)
	s.HideThinking = g.boolean(keyHideThinking)
	s.Think = g.optBoolean(keyThink)
	s.Theme = g.str(keyTheme)
	s.NoCache = g.boolean(keyNoCache)
	s.AuditResultBytes = g.integer(keyAuditResultBytes)
	s.NoHooks = g.boolean(keyNoHooks)
	s.Generation, err = generationReader{
		get: func(key string) (any, bool) {
			if !v.IsSet(key) {
				return nil, false
			}
			return v.Get(key), true
		},
		describe: func(key, format string, args ...any) error {
			return o.describe(key, origins[key], format, args...)
		},
	}.read()
	if err != nil {
		return nil, err
	}
	s.Session = g.str(keySession)
	s.SessionWait = g.waitDuration(keySessionWait)
	s.Yolo = g.boolean(keyYolo)
	s.Audit = o.auditPath(g.str(keyAudit), origins[keyAudit])
	s.Elicitation = config.Elicitation(g.str(keyElicitation))
	s.ServerSampling = config.ServerSampling(g.str(keySampling))
	s.MCPPrompt = strings.TrimSpace(o.flagString(keyMCPPrompt))
	if s.PromptArgs, err = o.promptArgs(); err != nil {
		return nil, err
	}
	s.ToolShare = g.number(keyToolShare)
	s.EmbedModel = strings.TrimSpace(g.str(keyEmbedModel))
	if g.err != nil {
		return nil, g.err
	}
	if s.OllamaHost != "" {
		s.OllamaHostSource = origins[keyOllamaHost].name(keyOllamaHost, &o)
	} else {
		// Ollama's own variable, below every mcphost setting.
		s.OllamaHost, _ = o.Env("OLLAMA_HOST")
		if s.OllamaHost != "" {
			s.OllamaHostSource = "OLLAMA_HOST"
		}
	}
	if s.ProviderAPIKey != "" {
		s.ProviderKeySource = origins[keyProviderAPIKey].name(keyProviderAPIKey, &o)
	} else if key, ok := o.Env("OPENAI_API_KEY"); ok && key != "" {
		// OpenAI's own variable, below every mcphost setting; the host
		// sends it to openai:MODEL only.
		s.ProviderAPIKey, s.ProviderKeySource = key, "OPENAI_API_KEY"
	}
	if s.ProviderURL != "" {
		s.ProviderURLSource = origins[keyProviderURL].name(keyProviderURL, &o)
	}
	if from := origins[keyProviderURL].file; from != "" && s.ProviderURL != "" && isProjectFile(files, from) {
		s.ProviderURLProject = from
	}
	if from := origins[keyOllamaHost].file; from != "" && s.OllamaHost != "" && isProjectFile(files, from) {
		s.OllamaHostProject = from
	}
	s.Adhoc = adhoc
	if script != nil {
		s.ScriptFile, s.ScriptServers = o.ScriptFile, script.Servers != nil
		if s.Prompt == "" {
			// -p on the command line wins over the script's prompt.
			s.Prompt = script.Prompt
		}
	}
	if err := o.check(s, origins); err != nil {
		return nil, err
	}
	if s.SystemPrompt, err = o.systemPrompt(s.SystemPrompt, origins[keySystemPrompt]); err != nil {
		return nil, err
	}
	switch {
	case o.Servers != nil:
		// The config's servers are not used, so a problem in them (an
		// unset variable, say) does not stop this run.
		s.Servers = o.Servers
	case !definesServers(files) && o.DefaultServer:
		s.Servers = o.defaultServers()
	case !definesServers(files):
		s.Servers = nil
	default:
		if s.Servers, err = o.servers(files); err != nil {
			return nil, err
		}
	}
	if s.ModelGeneration, err = o.modelGeneration(files); err != nil {
		return nil, err
	}
	if !s.NoHooks {
		// With no-hooks (a flag, a variable or a setting) the hooks are
		// not used, so a mistake in them does not stop the run.
		if s.Hooks, err = o.hooks(files); err != nil {
			return nil, err
		}
	}
	if s.Approval, err = o.approval(files); err != nil {
		return nil, err
	}
	if s.Providers, err = o.providers(files); err != nil {
		return nil, err
	}
	warnings = append(warnings, o.protectServers(s, files)...)
	for i := len(files) - 1; i >= 0; i-- {
		s.Files = append(s.Files, files[i].path)
	}
	s.Untrusted, s.Warnings = untrusted, warnings
	return s, nil
}

// isProjectFile reports whether path is one of the project files among
// files.
func isProjectFile(files []*configFile, path string) bool {
	return slices.ContainsFunc(files, func(f *configFile) bool { return f.project && f.path == path })
}

// flagString is the value of a string flag, empty when it is not defined.
// promptArgs reads the --prompt-arg NAME=VALUE flags.
func (o *LoadOptions) promptArgs() (map[string]string, error) {
	f := o.Flags.Lookup(keyPromptArg)
	if f == nil || !f.Changed {
		return nil, nil
	}
	list, err := o.Flags.GetStringArray(keyPromptArg)
	if err != nil {
		return nil, err
	}
	args := map[string]string{}
	for _, a := range list {
		name, value, ok := strings.Cut(a, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, &config.Error{Field: keyPromptArg, Message: fmt.Sprintf("--prompt-arg %q must be NAME=VALUE, e.g. --prompt-arg city=Paris", a)}
		}
		args[strings.TrimSpace(name)] = value
	}
	if o.flagString(keyMCPPrompt) == "" {
		return nil, &config.Error{Field: keyPromptArg, Message: "--prompt-arg gives the arguments of --mcp-prompt SERVER__PROMPT: give that too"}
	}
	return args, nil
}

func (o *LoadOptions) flagString(name string) string {
	if f := o.Flags.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// readScript parses ScriptPath, if set, into the Script layer and the
// servers that replace the config's.
func (o *LoadOptions) readScript() (*Script, error) {
	if o.ScriptPath == "" {
		return nil, nil
	}
	f, err := LoadScript(o.ScriptPath, o.ScriptArgs, o.Env)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(o.ScriptPath)
	if err != nil {
		return nil, &config.Error{File: o.ScriptPath, Message: fmt.Sprintf("cannot resolve the script's path: %v", err), Err: err}
	}
	o.Script, o.ScriptFile = f.Settings, abs
	if f.Servers != nil && o.Servers == nil {
		// ${PROJECT_DIR} is the script's directory, as for a config file.
		specs, err := ServersFromMap(f.Servers, o.ScriptPath, filepath.Dir(abs), f.Lookup)
		if err != nil {
			return nil, err
		}
		o.Servers = append([]config.ServerSpec{}, specs...) // not nil: "no servers" too replaces the config's
	}
	return f, nil
}

// scriptWarnings names the unknown keys of script's front matter and of its
// server entries.
func (o *LoadOptions) scriptWarnings(script *Script) []string {
	if script == nil {
		return nil
	}
	shown := config.DisplayPath(o.ScriptFile, o.HomeDir, o.WorkDir)
	return append(scriptKeyWarnings(shown, script.Settings), serverKeyWarnings(shown, script.Servers)...)
}

// withDefaults fills in the zero fields of LoadOptions.
func (opts LoadOptions) withDefaults() (LoadOptions, error) {
	o := opts
	if o.Env == nil {
		o.Env = os.LookupEnv
	}
	if o.Isolated {
		o.Env = func(string) (string, bool) { return "", false }
	}
	if o.Flags == nil {
		o.Flags = pflag.NewFlagSet("mcphost", pflag.ContinueOnError)
		RegisterFlags(o.Flags)
	}
	if o.WorkDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return o, &config.Error{Message: fmt.Sprintf("cannot find the working directory: %v", err), Err: err}
		}
		o.WorkDir = wd
	}
	if o.HomeDir == "" {
		// Without a home directory there are simply no user files.
		o.HomeDir, _ = os.UserHomeDir()
	}
	if o.ConfigDir == "" {
		o.ConfigDir = userdirs.For(runtime.GOOS, o.HomeDir, o.Env).Config
	}
	var err error
	if o.WorkDir, err = filepath.Abs(o.WorkDir); err != nil {
		return o, &config.Error{Message: fmt.Sprintf("cannot resolve the working directory: %v", err), Err: err}
	}
	if o.HomeDir != "" {
		if o.HomeDir, err = filepath.Abs(o.HomeDir); err != nil {
			return o, &config.Error{Message: fmt.Sprintf("cannot resolve the home directory: %v", err), Err: err}
		}
	}
	return o, nil
}

// fail builds an *Error whose paths are shortened like the others.
func (o *LoadOptions) fail(file, field string, err error, format string, args ...any) *config.Error {
	return &config.Error{
		File: file, Field: field, Message: fmt.Sprintf(format, args...),
		HomeDir: o.HomeDir, WorkDir: o.WorkDir, Err: err,
	}
}

// readFiles finds and decodes the config files, lowest precedence first,
// and returns the project files it left out because they are not trusted,
// and the warnings about files found by their names that it skipped
// because they are not regular files of a config file's size.
func (o *LoadOptions) readFiles() ([]*configFile, []config.ProjectFile, []string, error) {
	r := fileReader{homeDir: o.HomeDir, workDir: o.WorkDir}
	if path := cmp.Or(o.flagString(keyConfig), o.ConfigFile); path != "" {
		if !filepath.IsAbs(path) {
			path = filepath.Join(o.WorkDir, path)
		}
		info, err := os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, nil, o.fail(path, keyConfig, err, "the config file given with --config does not exist: check the path")
		}
		if err == nil && info.IsDir() {
			return nil, nil, nil, o.fail(path, keyConfig, nil, "--config must name a file, not a directory")
		}
		// An explicit file's neighbours are its project: ${PROJECT_DIR} is
		// the directory it lives in. The user named it, so it is trusted;
		// one that is not a regular file of a config file's size is an
		// error (readBytes), as the user asked for it.
		cf, err := r.read(path, filepath.Dir(path))
		if err != nil {
			return nil, nil, nil, err
		}
		return []*configFile{cf}, nil, nil, nil
	}

	if o.Isolated {
		return nil, nil, nil, nil
	}
	// Lowest precedence first: the home directory's files, the platform's
	// config directory's (the user's own), then the project's.
	var (
		files     []*configFile
		skipped   []string
		userPaths []string
	)
	if o.HomeDir != "" {
		userPaths = append(userPaths, configPaths(o.HomeDir, true, dotfiles())...)
	}
	if o.ConfigDir != "" && o.ConfigDir != o.WorkDir {
		userPaths = append(userPaths, configPaths(o.ConfigDir, false, []string{"config.yml", "config.yaml", "config.json"})...)
	}
	for _, path := range userPaths {
		cf, err := r.read(path, o.WorkDir)
		if unreadable(err) {
			// A file found by its name that is not a config file (a
			// directory named .mcphost.yml) is left out, not a reason
			// for every run to fail.
			skipped = append(skipped, r.skipWarning(err))
			continue
		}
		if err != nil {
			return nil, nil, nil, err
		}
		files = append(files, cf)
	}
	userHooks, err := o.readUserHooks(r)
	if unreadable(err) {
		skipped = append(skipped, r.skipWarning(err))
	} else if err != nil {
		return nil, nil, nil, err
	}
	if userHooks != nil {
		files = append(files, userHooks)
	}
	if o.isHome(o.WorkDir) {
		return files, nil, skipped, nil // the user's own files, read above
	}
	paths := projectPaths(o.WorkDir)
	if len(paths) == 0 {
		return files, nil, skipped, nil
	}
	trustAll, err := o.trustAll()
	if err != nil {
		return nil, nil, nil, err
	}
	store := o.trustStore()
	var untrusted []config.ProjectFile
	for _, path := range paths {
		// The bytes checked against the record are the bytes decoded, so a
		// file changed in between is not used. They are read bounded, before
		// anything else: the file is not trusted yet.
		data, err := r.readBytes(path)
		if unreadable(err) {
			skipped = append(skipped, r.skipWarning(err))
			continue
		}
		if err != nil {
			return nil, nil, nil, err
		}
		pf := o.projectFile(r, path, data)
		trusted := trustAll
		if !trusted {
			if trusted, err = store.TrustedFile(pf); err != nil {
				return nil, nil, nil, err
			}
		}
		if !trusted {
			if pf.Changed, err = store.Changes(pf); err != nil {
				return nil, nil, nil, err
			}
			untrusted = append(untrusted, pf)
			continue
		}
		var cf *configFile
		if isHooksFile(path) && o.noHooksAsked() {
			continue // not used: see noHooksAsked
		}
		if isHooksFile(path) {
			cf, err = r.decodeHooksFile(path, data)
		} else {
			cf, err = r.decode(path, o.WorkDir, data)
		}
		if err != nil {
			return nil, nil, nil, err
		}
		cf.project = true
		cf.scripts = pf.Scripts
		files = append(files, cf)
	}
	return files, untrusted, skipped, nil
}

// projectPaths lists the project files of workDir that need trust: the
// config files, then the hooks file.
func projectPaths(workDir string) []string {
	paths := configPaths(workDir, true, dotfiles())
	if hooks := projectHooksPath(workDir); hooks != "" {
		paths = append(paths, hooks)
	}
	return paths
}

// dotfiles are the names of mcphost's own file in the home and working
// directories, the first that exists being read.
func dotfiles() []string { return []string{".mcphost.yml", ".mcphost.yaml", ".mcphost.json"} }

// configPaths lists the config files in dir, lowest precedence first:
// .mcp.json when shared (it is shared with Claude Code, so mcphost's own
// file wins), then the first of names that exists.
func configPaths(dir string, shared bool, names []string) []string {
	var paths []string
	if path := filepath.Join(dir, ".mcp.json"); shared && exists(path) {
		paths = append(paths, path)
	}
	for _, name := range names {
		if path := filepath.Join(dir, name); exists(path) {
			return append(paths, path)
		}
	}
	return paths
}

// exists reports whether path names something; a file that exists but
// cannot be read is reported when it is read.
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

// origin records which layer gave a setting, to name it in errors.
type origin struct {
	flag bool
	env  string // the variable's name
	file string
}

// layer stacks defaults, files, MCPHOST_* variables and flags in a fresh
// viper, and records where each setting came from.
func (o *LoadOptions) layer(files []*configFile) (*viper.Viper, map[string]origin) {
	v := viper.New()
	v.SetDefault(keyMaxSteps, defaultMaxSteps)
	v.SetDefault(keyNumCtx, defaultNumCtx)
	v.SetDefault(keyOutput, defaultOutput)
	v.SetDefault(keyTheme, "auto")
	v.SetDefault(keyAuditResultBytes, 4096)
	v.SetDefault(keyMaxReplyBytes, defaultMaxReplyBytes)
	v.SetDefault(keyModelIdleTimeout, defaultModelIdleTimeout.String())
	v.SetDefault(keyServerWait, config.DefaultServerWait.String())
	v.SetDefault(keyModelTimeout, defaultModelTimeout.String())
	v.SetDefault(keyMaxStdinBytes, defaultMaxStdinBytes)
	v.SetDefault(keyMaxParallelTools, defaultMaxParallelTools)
	v.SetDefault(keyMaxToolCalls, defaultMaxToolCalls)
	v.SetDefault(keyToolShare, defaultToolShare)

	origins := map[string]origin{}
	for _, f := range files {
		layer := make(map[string]any, len(f.settings))
		for k, val := range f.settings {
			layer[k] = val
			origins[k] = origin{file: f.path}
		}
		_ = v.MergeConfigMap(layer) // it never fails
	}
	// The environment is one more layer above the files rather than viper's
	// AutomaticEnv, which would read os.Getenv instead of o.Env.
	envLayer := map[string]any{}
	for _, k := range fileKeys() {
		name := envName(k)
		if val, ok := o.Env(name); ok && val != "" {
			envLayer[k] = val
			origins[k] = origin{env: name}
		}
	}
	_ = v.MergeConfigMap(envLayer)
	_ = v.MergeConfigMap(o.scriptLayer(origins))

	for _, k := range append(fileKeys(), keyPrompt) {
		f := o.Flags.Lookup(k)
		if f == nil {
			continue
		}
		_ = v.BindPFlag(k, f) // fails only for a nil flag
		if f.Changed {
			origins[k] = origin{flag: true}
		}
	}
	return v, origins
}

// scriptLayer returns the settings of Script under their canonical keys,
// recording the script as their origin. Keys that are not settings are
// left out, as in config files.
func (o *LoadOptions) scriptLayer(origins map[string]origin) map[string]any {
	layer := map[string]any{}
	for k, val := range o.Script {
		if key, ok := settingKey(k); ok && val != nil {
			layer[key] = val
			origins[key] = origin{file: o.ScriptFile}
		}
	}
	return layer
}

// envName is the MCPHOST_* variable of a setting.
func envName(key string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
}

// getter reads typed settings from viper, keeping the first error. Viper's
// own GetInt turns "abc" into 0 silently, which would hide the mistake.
type getter struct {
	v       *viper.Viper
	origins map[string]origin
	o       *LoadOptions
	err     error
}

// bad records that a setting has the wrong type.
func (g *getter) bad(key, want string) {
	if g.err == nil {
		g.err = g.o.describe(key, g.origins[key], "must be %s", want)
	}
}

// str reads a text setting; numbers and booleans are rendered as text.
func (g *getter) str(key string) string {
	val := g.v.Get(key)
	s, ok := scalarString(val)
	if !ok {
		g.bad(key, "a string")
	}
	return s
}

// integer reads a whole-number setting from a flag, a number or a string.
func (g *getter) integer(key string) int {
	switch n := g.v.Get(key).(type) {
	case int:
		return n
	case int64:
		if n >= math.MinInt && n <= math.MaxInt {
			return int(n)
		}
	case uint64:
		if n <= math.MaxInt {
			return int(n)
		}
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
			return int(n)
		}
	case string:
		if i, err := strconv.Atoi(strings.TrimSpace(n)); err == nil {
			return i
		}
	}
	g.bad(key, "a whole number")
	return 0
}

// number reads a decimal setting from a flag, a number or a string.
func (g *getter) number(key string) float64 {
	switch n := g.v.Get(key).(type) {
	case float64:
		return n
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case uint64:
		return float64(n)
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(n), 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f
		}
	}
	g.bad(key, "a number")
	return 0
}

// waitDuration reads a duration setting ("30s", "2m"); empty means no
// limit (-1), "0" no wait at all.
func (g *getter) waitDuration(key string) time.Duration {
	s := strings.TrimSpace(g.str(key))
	switch s {
	case "":
		return -1
	case "0":
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		g.bad(key, `a duration such as "30s" or "2m", or 0`)
		return 0
	}
	return d
}

// duration reads a length of time: a duration ("90s", "5m") or a number
// of seconds.
func (g *getter) duration(key string) time.Duration {
	switch d := g.v.Get(key).(type) {
	case time.Duration:
		return d
	case int:
		return time.Duration(d) * time.Second
	case int64:
		return time.Duration(d) * time.Second
	case uint64:
		return time.Duration(d) * time.Second
	case float64:
		return time.Duration(d * float64(time.Second))
	case string:
		s := strings.TrimSpace(d)
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return time.Duration(f * float64(time.Second))
		}
		if v, err := time.ParseDuration(s); err == nil {
			return v
		}
	}
	g.bad(key, `a duration such as "90s" or "5m", or a number of seconds`)
	return 0
}

// optBoolean reads a true/false setting that may be left unset: nil when
// no flag, variable or file sets it.
func (g *getter) optBoolean(key string) *bool {
	if !g.v.IsSet(key) {
		return nil
	}
	b := g.boolean(key)
	return &b
}

// boolean reads a true/false setting from a flag, a bool or a string.
func (g *getter) boolean(key string) bool {
	switch b := g.v.Get(key).(type) {
	case nil:
		return false
	case bool:
		return b
	case string:
		if v, err := strconv.ParseBool(strings.TrimSpace(b)); err == nil {
			return v
		}
	}
	g.bad(key, "true or false")
	return false
}

// name says where a setting came from, the way the user gave it:
// --provider-api-key, MCPHOST_PROVIDER_API_KEY or "provider-api-key" in
// FILE.
func (from origin) name(key string, o *LoadOptions) string {
	switch {
	case from.env != "":
		return from.env
	case from.file != "":
		return fmt.Sprintf("%q in %s", key, config.DisplayPath(from.file, o.HomeDir, o.WorkDir))
	}
	return "--" + key
}

// describe words a problem with a setting, naming it the way the user gave
// it: --max-steps, MCPHOST_MAX_STEPS or "max-steps" in a file.
func (o *LoadOptions) describe(key string, from origin, format string, args ...any) *config.Error {
	msg := fmt.Sprintf(format, args...)
	switch {
	case from.flag:
		return o.fail("", key, nil, "--%s %s", key, msg)
	case from.env != "":
		return o.fail("", key, nil, "%s %s", from.env, msg)
	case from.file != "":
		return o.fail(from.file, key, nil, "%q %s", key, msg)
	}
	return o.fail("", key, nil, "--%s %s", key, msg)
}

// check validates the ranges and choices of the settings.
func (o *LoadOptions) check(s *config.Settings, origins map[string]origin) error {
	if s.MaxSteps < 1 {
		return o.describe(keyMaxSteps, origins[keyMaxSteps], "must be at least 1, got %d", s.MaxSteps)
	}
	if s.NumCtx < 0 {
		return o.describe(keyNumCtx, origins[keyNumCtx], "must be 0 (the model's default) or more, got %d", s.NumCtx)
	}
	if s.MaxResultBytes < 0 {
		return o.describe(keyMaxResultBytes, origins[keyMaxResultBytes], "must be 0 (about half the context window) or more, got %d", s.MaxResultBytes)
	}
	if s.ToolShare < 0 || s.ToolShare > 1 || math.IsNaN(s.ToolShare) {
		return o.describe(keyToolShare, origins[keyToolShare], "must be from 0 (always offer every tool) to 1 (the whole context window), got %v", s.ToolShare)
	}
	for _, b := range []struct {
		key   string
		value int
	}{
		{keyMaxReplyBytes, s.MaxReplyBytes}, {keyMaxStdinBytes, s.MaxStdinBytes},
		{keyMaxParallelTools, s.MaxParallelTools}, {keyMaxToolCalls, s.MaxToolCalls},
	} {
		if b.value < 1 {
			return o.describe(b.key, origins[b.key], "must be at least 1, got %d", b.value)
		}
	}
	if s.ModelIdleTimeout <= 0 {
		return o.describe(keyModelIdleTimeout, origins[keyModelIdleTimeout], "must be more than 0, got %s", s.ModelIdleTimeout)
	}
	if s.ModelTimeout <= 0 {
		return o.describe(keyModelTimeout, origins[keyModelTimeout], "must be more than 0, got %s", s.ModelTimeout)
	}
	switch {
	case s.ServerWait < 0:
		return o.describe(keyServerWait, origins[keyServerWait], "must not be negative (0: do not wait), got %s", s.ServerWait)
	case s.ServerWait == 0:
		// Settings' zero means the default: "do not wait" is negative.
		s.ServerWait = -1
	}
	if !slices.Contains(config.ElicitationModes(), string(s.Elicitation)) {
		return o.describe(keyElicitation, origins[keyElicitation], "must be one of %s, got %q",
			strings.Join(config.ElicitationModes(), ", "), s.Elicitation)
	}
	if !slices.Contains(config.ServerSamplingModes(), string(s.ServerSampling)) {
		return o.describe(keySampling, origins[keySampling], "must be one of %s, got %q",
			strings.Join(config.ServerSamplingModes(), ", "), s.ServerSampling)
	}
	if !slices.Contains([]string{"dark", "light", "auto"}, s.Theme) {
		return o.describe(keyTheme, origins[keyTheme], `must be dark, light or auto, got %q`, s.Theme)
	}
	if !slices.Contains(outputFormats(), s.Output) {
		return o.describe(keyOutput, origins[keyOutput], "must be one of %s, got %q",
			strings.Join(outputFormats(), ", "), s.Output)
	}
	return nil
}

// systemPrompt returns the text of the system prompt setting: the contents
// of the file it names, if it names a regular file, else the value itself.
// A relative path is taken from the config file that set it, or else from
// the working directory.
func (o *LoadOptions) systemPrompt(value string, from origin) (string, error) {
	if value == "" {
		return "", nil
	}
	path, fromHome := homeRelative(value, o.HomeDir)
	switch {
	case fromHome, filepath.IsAbs(path):
	case from.file != "":
		path = filepath.Join(filepath.Dir(from.file), path)
	default:
		path = filepath.Join(o.WorkDir, path)
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return value, nil // not a file: the text itself
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", o.fail(path, keySystemPrompt, err, "cannot read the system prompt file: %v", errors.Unwrap(err))
	}
	return string(data), nil
}

// servers merges the mcpServers of files by name, later files winning, and
// normalises them.
func (o *LoadOptions) servers(files []*configFile) ([]config.ServerSpec, error) {
	type owned struct {
		raw  any
		file *configFile
	}
	merged := map[string]owned{}
	for _, f := range files {
		for name, raw := range f.servers {
			merged[name] = owned{raw, f}
		}
	}
	specs := make([]config.ServerSpec, 0, len(merged))
	for _, name := range sortedKeys(merged) {
		m := merged[name]
		p := serverParser{
			source: m.file.path, projectDir: m.file.projectDir,
			homeDir: o.HomeDir, workDir: o.WorkDir, env: o.Env,
		}
		spec, err := p.parse(name, m.raw)
		if err != nil {
			return nil, err
		}
		if spec.Roots == nil && m.file.roots != nil && spec.Err == nil {
			// A file's roots reach only its own servers: a project file
			// must not widen what the user's servers may see.
			x := expander{p: &p, name: "", lenient: spec.Disabled}
			if spec.Roots, err = p.roots("", m.file.roots, &x); err != nil {
				return nil, err
			}
		}
		specs = append(specs, spec)
	}
	if len(specs) == 0 {
		return nil, nil
	}
	return specs, nil
}
