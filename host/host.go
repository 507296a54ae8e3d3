package host

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcphost/mcphost/approval"
	"github.com/mcphost/mcphost/audit"
	"github.com/mcphost/mcphost/builtin"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/elicit"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/provider/ollama"
	"github.com/mcphost/mcphost/sampling"
	"github.com/mcphost/mcphost/secret"
	"github.com/mcphost/mcphost/servers"
)

// Options configure a Host. The zero value reads the configuration the
// mcphost command reads and uses the model it names, if any.
type Options struct {
	// Model is the model to use, as the command's -m takes it
	// ("ollama:qwen3:8b"); empty means the config's. Without a model the
	// Host can only reach the MCP servers (Servers, Tools, CallTool).
	Model string
	// Provider is the model's engine; nil means the one Model names
	// (Ollama, at OllamaHost). Any provider.Provider works: other
	// engines, or a scripted one in tests.
	Provider provider.Provider
	// OllamaHost overrides the config's ollama-host and $OLLAMA_HOST.
	OllamaHost string
	// ToolsOnly leaves the model out even when the config names one: the
	// Host only reaches the MCP servers, and nothing contacts an engine.
	ToolsOnly bool

	// Settings, when not nil, is the whole configuration, already loaded
	// (config.Load): nothing else is read. The mcphost command passes its
	// own. The fields below still override it where set.
	Settings *config.Settings
	// ConfigFile, when not empty, is read instead of the usual config
	// files, as the command's --config does.
	ConfigFile string
	// TrustProject uses the project config files of the working directory
	// (./.mcp.json, ./.mcphost.*) even when the user has not trusted them
	// (see config.TrustStore); otherwise an untrusted one is left out
	// with a warning.
	TrustProject bool
	// IgnoreConfig reads no config files (but ConfigFile) and no
	// MCPHOST_* or OLLAMA_HOST variables: only the defaults and these
	// options count.
	IgnoreConfig bool
	// Servers, when not nil, replaces the config's MCP servers; NoServers
	// starts none at all.
	Servers   []config.ServerSpec
	NoServers bool
	// AllowFailedStart makes New succeed even when no server could start;
	// Servers then says why each failed. By default New returns
	// ErrNoServers when some were configured and none started.
	AllowFailedStart bool
	// NoCache neither reads nor writes the cache of servers' tool lists
	// (config's no-cache): every server starts in New, as on a first run.
	NoCache bool
	// Start says when the servers start; the zero value, StartLazy, keeps
	// the servers whose tool list is cached (from an earlier run) idle
	// until one of their tools is called.
	Start StartMode

	// SystemPrompt starts every conversation; empty means the config's.
	SystemPrompt string
	// MaxSteps bounds the tool-calling model calls of one turn; 0 means
	// the config's (20 by default).
	MaxSteps int
	// NumCtx caps the context window asked of the model; 0 means the
	// config's (8192 by default).
	NumCtx int
	// MaxResultBytes cuts each tool result before the model sees it; 0
	// means the config's (about half the context window).
	MaxResultBytes int

	// Allow, Ask and Deny add approval rules (globs over "server__tool"
	// names) to the config's; Yolo allows every tool that is not denied.
	Allow, Ask, Deny []string
	Yolo             bool
	// Asker is asked about tool calls that need approval; nil refuses
	// them, as a one-shot run does. SetAsker changes it later.
	Asker approval.Asker
	// Elicit answers servers' requests for input; nil answers as the
	// config's elicitation setting says (decline by default).
	// SetElicitor changes it later.
	Elicit elicit.Func
	// Sampling decides servers' requests for a completion by the model
	// (MCP sampling), which an approved request gets from the current
	// model; nil decides as the config's sampling setting says (deny by
	// default, with a warning). SetSampling changes it later.
	Sampling sampling.Approver
	// OnChange is told when a server's tools, prompts or resources
	// changed while it ran (it said so, and they were listed again); the
	// model is offered the new tools at its next call. SetOnChange
	// changes it later.
	OnChange func(ListChange)
	// AuditLog, when not empty, is the path of a JSON-lines audit log of
	// every tool call, secrets masked; empty means the config's.
	AuditLog string

	// Logger receives debug logs and warnings, secrets masked; nil
	// discards them.
	Logger *slog.Logger
	// Warn receives problems that do not stop the Host (a server that
	// could not start, a model without tool support, a tool refused for
	// lack of approval), secrets masked; nil logs them at warning level.
	Warn func(string)
	// MaskEvents masks the config's secrets (header and env values) in
	// the tool arguments and results that events carry, for programs that
	// show them to people. The model and the tools always get the real
	// values.
	MaskEvents bool
	// ClientVersion is the version sent to servers as clientInfo.
	ClientVersion string
}

// StartMode says when a Host starts its servers.
type StartMode int

const (
	// StartLazy starts, in New, only the servers whose tool list is not
	// in the cache; the others start when one of their tools is first
	// called. With a warm cache New waits for no server at all.
	StartLazy StartMode = iota
	// StartAll starts every server in New and waits for each, as a first
	// run does (and as checking a config needs).
	StartAll
	// StartBackground starts every server without waiting: New returns
	// at once, and a turn waits only for the servers whose tools are not
	// known yet. For a chat, whose prompt must be usable at once.
	StartBackground
)

// Host is a model with the tools of MCP servers: the servers, the model's
// engine, the approval policy and the audit log, shared by any number of
// conversations. It must be closed.
type Host struct {
	settings *config.Settings
	opts     Options
	logger   *slog.Logger
	mask     *secret.Masker
	warn     func(string)

	backend provider.Provider
	// model is what the engine said about the configured model; its Name
	// is empty when the Host has no model.
	model provider.ModelInfo

	manager *servers.Manager
	// startErrs are the servers' first start failures, by server.
	startErrs map[string]error
	approval  *approval.Toolbox
	audit     *audit.Log
	// elicitor answers servers' requests for input; SetElicitor swaps it.
	elicitor atomic.Pointer[elicit.Func]
	// approver decides sampling requests; onChange hears of list
	// changes. Set* swap them.
	approver atomic.Pointer[sampling.Approver]
	// policyApprover is true while approver is the --sampling setting.
	policyApprover atomic.Bool
	onChange       atomic.Pointer[func(ListChange)]
	// current is the model of the conversation that last chose one: the
	// model that answers servers' sampling requests.
	current atomic.Pointer[provider.ModelInfo]
	// toolbox is the servers' tools and the host's own resource tools,
	// as the approval policy sees them.
	toolbox *hostTools

	defaultOnce sync.Once
	defaultConv *Conversation

	closeOnce sync.Once
}

// New reads the configuration, connects to the model's engine and starts
// the MCP servers, in parallel, and returns when every server is ready or
// has failed. Problems that leave the Host usable (a server that failed
// while others started) go to Options.Warn. Cancelling ctx abandons the
// start.
func New(ctx context.Context, opts Options) (*Host, error) {
	settings, err := loadSettings(opts)
	if err != nil {
		return nil, err
	}
	h := &Host{settings: settings, opts: opts, mask: secret.FromServers(settings.Servers)}
	if opts.Logger == nil {
		h.logger = slog.New(slog.DiscardHandler)
	} else {
		// The log quotes servers' stderr and errors, which may hold the
		// config's secrets.
		h.logger = slog.New(h.mask.Handler(opts.Logger.Handler()))
	}
	warn := opts.Warn
	if warn == nil {
		warn = func(msg string) { h.logger.Warn(msg) }
	}
	// Warnings quote servers' errors and stderr lines, which may hold the
	// config's secrets.
	h.warn = func(msg string) { warn(h.mask.String(msg)) }
	for _, msg := range settings.Warnings {
		h.warn(msg)
	}
	if len(settings.Untrusted) > 0 {
		h.warn(config.UntrustedWarning(settings.Untrusted))
	}
	if err := h.start(ctx); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// loadSettings is Options.Settings, or the configuration read as the
// command reads it, with the options' overrides applied to a copy.
func loadSettings(opts Options) (*config.Settings, error) {
	var s config.Settings
	if opts.Settings != nil {
		s = *opts.Settings
	} else {
		load := config.LoadOptions{ConfigFile: opts.ConfigFile, Servers: opts.Servers, Isolated: opts.IgnoreConfig, TrustProject: opts.TrustProject}
		if opts.NoServers {
			load.Servers = []config.ServerSpec{}
		}
		loaded, err := config.Load(load)
		if err != nil {
			return nil, configError(err)
		}
		s = *loaded
	}
	switch {
	case opts.NoServers:
		s.Servers = nil
	case opts.Servers != nil:
		s.Servers = opts.Servers
	}
	if opts.Model != "" {
		s.Model = opts.Model
	}
	if opts.OllamaHost != "" {
		s.OllamaHost = opts.OllamaHost
	}
	if opts.SystemPrompt != "" {
		s.SystemPrompt = opts.SystemPrompt
	}
	if opts.AuditLog != "" {
		s.Audit = opts.AuditLog
	}
	for _, v := range []struct {
		name string
		val  int
		dst  *int
	}{{"MaxSteps", opts.MaxSteps, &s.MaxSteps}, {"NumCtx", opts.NumCtx, &s.NumCtx}, {"MaxResultBytes", opts.MaxResultBytes, &s.MaxResultBytes}} {
		switch {
		case v.val < 0:
			return nil, configError(fmt.Errorf("host.Options.%s must not be negative, got %d", v.name, v.val))
		case v.val > 0:
			*v.dst = v.val
		}
	}
	s.Approval.Allow = append(append([]string{}, s.Approval.Allow...), opts.Allow...)
	s.Approval.Ask = append(append([]string{}, s.Approval.Ask...), opts.Ask...)
	s.Approval.Deny = append(append([]string{}, s.Approval.Deny...), opts.Deny...)
	s.Yolo = s.Yolo || opts.Yolo
	s.NoCache = s.NoCache || opts.NoCache
	return &s, nil
}

// start does the work of New.
func (h *Host) start(ctx context.Context) error {
	s := h.settings
	var modelName string
	if !h.opts.ToolsOnly && (s.Model != "" || h.opts.Provider != nil) {
		var err error
		if h.backend, modelName, err = h.newProvider(); err != nil {
			return err
		}
	}
	for _, spec := range s.Servers {
		if spec.Transport == config.TransportBuiltin && !spec.Disabled {
			if err := builtin.Check(spec); err != nil {
				return configError(err)
			}
		}
	}
	if s.Audit != "" {
		log, err := audit.Open(s.Audit, h.mask, h.warn)
		if err != nil {
			return configError(err)
		}
		h.audit = log
	}
	answer := h.opts.Elicit
	if answer == nil {
		answer = elicit.Handler(s.Elicitation, h.warn)
	}
	h.elicitor.Store(&answer)
	h.SetSampling(h.opts.Sampling)
	h.SetOnChange(h.opts.OnChange)
	logLevel := "warning"
	if s.Debug {
		logLevel = "debug"
	}
	mopts := servers.Options{
		ClientName: "mcphost", ClientVersion: h.opts.ClientVersion, Logger: h.logger,
		Builtin:     builtin.New,
		Elicitation: h.elicit,
		Sampling:    h.sample,
		LogLevel:    logLevel,
		Warn:        h.warn,
		OnChange:    h.changed,
		Lazy:        h.opts.Start == StartLazy,
		Background:  h.opts.Start == StartBackground,
	}
	if !s.NoCache {
		mopts.CacheDir = config.DefaultUserDirs().Cache
	}
	h.manager = servers.NewManager(s.Servers, mopts)
	h.toolbox = &hostTools{m: h.manager}
	h.approval = h.newApproval()

	// The servers start while the engine describes the model: start-up
	// costs the slower of the two, not their sum.
	var (
		info    provider.ModelInfo
		showErr error
		wg      sync.WaitGroup
	)
	if modelName != "" {
		wg.Go(func() { info, showErr = h.backend.Show(ctx, modelName) })
	}
	startErrs := h.manager.Start(ctx)
	wg.Wait()

	if err := ctx.Err(); err != nil {
		return err
	}
	if showErr != nil {
		return showErr
	}
	h.startErrs = map[string]error{}
	for _, e := range startErrs {
		h.warn(e.Error())
		var se *servers.StartError
		if errors.As(e, &se) {
			h.startErrs[se.Server] = se
		}
	}
	if enabled := countEnabled(s.Servers); !h.opts.AllowFailedStart && enabled > 0 && len(startErrs) == enabled {
		return fmt.Errorf("%w (%d configured): fix the errors above or run without them", ErrNoServers, enabled)
	}
	if modelName != "" {
		info.Name = modelName
		if !info.Has(provider.CapabilityTools) {
			h.warn(fmt.Sprintf("model %q does not support tools (capabilities: %s): it answers without them; pick a tool-capable model such as qwen3 or llama3.1 to use MCP servers",
				modelName, strings.Join(info.Capabilities, ", ")))
		}
		h.model = info
		h.current.Store(&info)
	}
	return nil
}

// newProvider returns the engine of the configured model and the model's
// name on it.
func (h *Host) newProvider() (provider.Provider, string, error) {
	s := h.settings
	if h.opts.Provider != nil {
		name := s.Model
		if _, m, err := provider.ParseModel(s.Model); err == nil {
			name = m
		}
		if name == "" {
			return nil, "", configError(errors.New("no model: give host.Options.Model with host.Options.Provider"))
		}
		return h.opts.Provider, name, nil
	}
	providerName, modelName, err := provider.ParseModel(s.Model)
	if err != nil {
		return nil, "", configError(err)
	}
	if providerName != "ollama" {
		return nil, "", configError(fmt.Errorf("unknown provider %q in model %q: use ollama:MODEL", providerName, s.Model))
	}
	backend, err := ollama.New(s.OllamaHost, nil)
	if err != nil {
		return nil, "", configError(err)
	}
	backend.SetRetry(ollama.LoggedRetry(h.logger))
	return backend, modelName, nil
}

// newApproval wraps the manager in the approval policy of the settings.
// Nobody is asked until an Asker is set: without one, a tool that needs
// approval is refused and warn says how to allow it.
func (h *Host) newApproval() *approval.Toolbox {
	builtins := map[string]bool{}
	for _, spec := range h.settings.Servers {
		if spec.Transport == config.TransportBuiltin {
			builtins[spec.Name] = true
		}
	}
	opts := approval.Options{
		Policy: approval.Policy{
			Allow: h.settings.Approval.Allow,
			Ask:   h.settings.Approval.Ask,
			Deny:  h.settings.Approval.Deny,
			Project: approval.Rules{
				Allow: h.settings.Approval.Project.Allow,
				Ask:   h.settings.Approval.Project.Ask,
				Deny:  h.settings.Approval.Project.Deny,
			},
			Yolo: h.settings.Yolo,
		},
		Info:    h.toolbox,
		Builtin: func(server string) bool { return builtins[server] },
		Notice:  h.warn,
		Asker:   h.opts.Asker,
	}
	if h.audit != nil {
		opts.Observer = h.audit
	}
	return approval.New(h.toolbox, opts)
}

// elicit is the manager's elicitation handler: whoever answers now.
func (h *Host) elicit(ctx context.Context, req elicit.Request) (elicit.Result, error) {
	return (*h.elicitor.Load())(ctx, req)
}

// SetElicitor makes f answer the servers' requests for input from now on;
// nil goes back to the configured answer.
func (h *Host) SetElicitor(f elicit.Func) {
	if f == nil {
		f = elicit.Handler(h.settings.Elicitation, h.warn)
	}
	h.elicitor.Store(&f)
}

// SetAsker sets who is asked about tool calls that need approval; nil
// refuses them.
func (h *Host) SetAsker(a approval.Asker) { h.approval.SetAsker(a) }

// Settings returns the configuration the Host runs with. It must not be
// modified.
func (h *Host) Settings() *config.Settings { return h.settings }

// Model describes the Host's model as its engine reported it; the Name is
// empty when the Host has no model.
func (h *Host) Model() provider.ModelInfo { return h.model }

// ShowModel asks the engine about a model, as a switch to it would.
func (h *Host) ShowModel(ctx context.Context, name string) (provider.ModelInfo, error) {
	if h.backend == nil {
		return provider.ModelInfo{}, ErrNoModel
	}
	if _, m, err := provider.ParseModel(name); err == nil {
		name = m
	}
	info, err := h.backend.Show(ctx, name)
	if err != nil {
		return info, err
	}
	info.Name = name
	return info, nil
}

// Mask hides the config's secrets (header and env values) in s.
func (h *Host) Mask(s string) string { return h.mask.String(s) }

// Close shuts every MCP server down (stdin closed, then SIGTERM, then
// SIGKILL, each to the whole process group; an HTTP session is ended with
// DELETE) and closes the audit log. Turns still running fail. Close may be
// called more than once.
func (h *Host) Close() error {
	h.closeOnce.Do(func() {
		if h.manager != nil {
			h.manager.Close()
		}
		if h.audit != nil {
			h.audit.Close()
		}
	})
	return nil
}

func countEnabled(specs []config.ServerSpec) int {
	n := 0
	for _, s := range specs {
		if !s.Disabled {
			n++
		}
	}
	return n
}
