package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/configload"
	"github.com/mcphost/mcphost/internal/guard/approval"
	"github.com/mcphost/mcphost/internal/guard/audit"
	"github.com/mcphost/mcphost/internal/guard/hooks"
	"github.com/mcphost/mcphost/internal/guard/secret"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/internal/servers/builtin"
	"github.com/mcphost/mcphost/internal/servers/oauth"
	"github.com/mcphost/mcphost/internal/toolselect"
	"github.com/mcphost/mcphost/internal/userdirs"
	"github.com/mcphost/mcphost/provider"
)

// Options configure a [Host]: the configuration it runs with (Config) and
// what only a program can give (a provider, Go tools, callbacks). The zero
// value reads the configuration the mcphost command reads and uses the
// model it names, if any.
type Options struct {
	// Config is the whole configuration the [Host] runs with: the model and
	// its engines, the MCP servers, the approval rules, the bounds, the
	// audit log, the hooks. Nil means the user's, read as the mcphost
	// command reads it (see [LoadConfig]): the config files, the MCPHOST_*
	// variables and the defaults, an untrusted project file left out with a
	// warning. A program that sets everything itself starts from
	// [DefaultConfig]; one that changes the user's starts from LoadConfig.
	// [New] copies it, checks what no config file has been through (the
	// servers given in code, the bounds) and returns [ErrConfig] naming the
	// setting when something cannot work; a zero bound means the default.
	// Without a model (Config.Model empty) the Host can only reach the MCP
	// servers ([Host.Servers], [Host.Tools], [Host.CallTool]).
	Config *config.Settings
	// Provider is the model's engine; nil means the one Config.Model
	// names (Ollama, at Config.OllamaHost). Any [provider.Provider] works:
	// other engines, or a scripted one in tests.
	Provider provider.Provider
	// PullProgress, when set, hears how the download goes when the model
	// is pulled (Config.Pull, as the command's --pull).
	PullProgress func(provider.PullProgress)
	// ToolsOnly leaves the model out even when Config names one: the
	// [Host] only reaches the MCP servers, and nothing contacts an engine.
	// The configured model still names the session to hooks, as when
	// "mcphost tools call" runs a tool without contacting the model.
	ToolsOnly bool

	// AllowFailedStart makes [New] succeed even when no server could start;
	// [Host.Servers] then says why each failed. By default New returns
	// [ErrNoServers] when some were configured and none started.
	AllowFailedStart bool
	// CacheDir is the folder of the cache of servers' tool lists (see
	// [StartLazy]). Empty means the user's cache folder, where the mcphost
	// command keeps it, when Config is nil; with a Config given in code
	// (from [DefaultConfig], [LoadConfig] or elsewhere) empty means no cache:
	// such a [Host] writes nothing under $HOME unless CacheDir names a
	// folder there. Config.NoCache turns the cache off either way.
	CacheDir string
	// Start says when the servers start (see [New]); the zero value,
	// [StartLazy], keeps the servers whose tool list is cached (from an
	// earlier run) idle until one of their tools is called.
	Start StartMode
	// OnStart hears how the servers' start goes, for a display of it:
	// which servers start, then each one's outcome as it comes (see
	// [StartNews]); it is called from the starting goroutines. Nil hears
	// nothing.
	OnStart func(StartNews)

	// Asker is put everything that needs a person: tool calls that need
	// approval, servers' forms (MCP elicitation), servers' requests for a
	// completion by the model (MCP sampling, which an approved request
	// gets from the current model), and OAuth sign-ins that remote servers
	// ask for while they start or during a call (the sign-in then waits
	// for the browser to come back, within the server's start or tool
	// timeout). Nil, and every question an Asker answers with
	// [ask.ErrNoOne] (as [ask.Nobody] does), gets the answer of a run
	// without a person: tool calls that need approval are refused, forms
	// answered as the config's elicitation setting says (decline by
	// default), sampling requests as its sampling setting says (deny by
	// default, with a warning), and no sign-in happens behind the
	// program's back: such a server fails with an error matching
	// [ErrSignIn], and [Host.Login] signs in. [Host.SetAsker] changes it
	// later, but sign-ins are asked only of a [Host] given an Asker here.
	Asker ask.Asker
	// OnChange is told when a server's tools, prompts or resources
	// changed while it ran (it said so, and they were listed again); the
	// model is offered the new tools at its next call. [Host.SetOnChange]
	// changes it later.
	OnChange func(ListChange)

	// Tools are Go functions the model may call besides the servers'
	// tools, each made by [NewTool]; the model sees each by its own name.
	Tools []Tool

	// Logger receives debug logs and warnings, secrets masked; nil
	// discards them.
	Logger *slog.Logger
	// Warn receives problems that do not stop the [Host] (a server that
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
	// Interactive tells hooks that a person is at the terminal (a chat);
	// their Notification hooks then hear of each question put to the
	// Asker.
	Interactive bool
}

// StartMode says when a [Host] starts its servers.
type StartMode int

const (
	// StartLazy starts, in [New], only the servers whose tool list is not
	// in the cache ([Options.CacheDir]); the others start when one of their
	// tools is first called. With a model, New waits for those it starts
	// no longer than the server wait (config.Settings.ServerWait, 10 s by
	// default; without a model, [Options.ToolsOnly], it waits for each): one
	// still starting then goes on starting in the background, and a turn
	// calls the model without its tools (see [ServerLeftOut]) until it is
	// ready. With a warm cache New waits for no server at all, and a
	// server broken since the cache was written fails at that call (see
	// New). For one-shot runs: the command's -p, piped input and scripts.
	StartLazy StartMode = iota
	// StartAll starts every server in [New] and waits for each, as a first
	// run does (and as checking a config needs): New's error, or
	// Servers, says which could not start and why.
	StartAll
	// StartBackground starts every server without waiting: [New] returns
	// at once, and a turn waits only for the servers whose tools are not
	// known yet, each no longer than the server wait from its start, as
	// with StartLazy. For a chat, whose prompt must be usable at once.
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
	// engines builds and keeps the backends of every engine a model
	// reference may name, for switches across engines.
	engines *engines
	// model is what the engine said about the configured model; its Name
	// is empty when the Host has no model.
	model provider.ModelInfo
	// embedder ranks tools by meaning, with the embed-model setting; nil
	// without one. Its cache is shared by the conversations.
	embedder toolselect.Embedder

	manager *servers.Manager
	// hooks runs the user\'s hooks; nil when there are none or --no-hooks.
	hooks *hooks.Runner
	// signIns are the stored OAuth sign-ins of remote servers.
	signIns *oauth.Store
	// startErrs are the servers' first start failures, by server.
	startErrs map[string]error
	approval  *approval.Toolbox
	audit     *audit.Log
	// asker is put the questions for a person; SetAsker swaps it.
	asker atomic.Pointer[askerBox]
	// onChange hears of list changes; SetOnChange swaps it.
	onChange atomic.Pointer[func(ListChange)]
	// current is the model (and its engine) of the conversation that
	// last chose one: the model that answers servers' sampling requests.
	current atomic.Pointer[modelChoice]
	// leftOut are the servers a turn went without (see waitServers), so
	// that each is warned of once.
	leftMu  sync.Mutex
	leftOut map[string]bool
	// toolbox is the servers' tools and the host's own resource tools,
	// as the approval policy sees them.
	toolbox *hostTools

	defaultOnce sync.Once
	defaultConv *Conversation

	// client makes the engines' HTTP requests; Close closes its idle
	// connections, which would otherwise outlive the Host.
	client *http.Client

	// life is cancelled, with ErrClosed as its cause, when Close begins.
	// Every turn and every call that reaches the model or a server runs
	// as work (see begin), so that Close can stop it and wait for it.
	life    context.Context
	stop    context.CancelCauseFunc
	workMu  sync.Mutex
	closing bool
	work    sync.WaitGroup

	closeOnce sync.Once
}

// New reads the configuration, asks the model's engine about the model
// and starts the MCP servers, in parallel, as [Options.Start] says:
//
//   - [StartAll]: every enabled server is started, and New returns when
//     each is ready or has failed.
//   - [StartLazy] (the zero value): the same, but for the servers whose
//     tool list is in the cache from an earlier run: those are not
//     started; their tools are offered from the cache, and each starts at
//     the first call of one of its tools. And, with a model, New waits for
//     the others no longer than the server wait (config.Settings.ServerWait): a
//     server still starting then is no failure; it goes on starting, and
//     its tools join the turns once it is ready.
//   - [StartBackground]: every server is started and New returns at once;
//     a turn waits for the servers whose tools are not known yet.
//
// A server that exits during its first start is started again after a
// moment; one that fails the same way twice is not retried further, and
// its error says so.
//
// A server that fails to start in New is a *[ServerError] (matching
// [ErrServerStart]), given to [Options.Warn]; when every configured server
// failed, New returns [ErrNoServers] wrapping them all, unless
// AllowFailedStart (a server still starting after the server wait has not
// failed: New returns the Host, and its turns go on without that server
// until it is ready). A server that fails to start at its first call fails
// that call: CallTool returns its *ServerError; in a turn, the tool's
// result is an error with the reason, which the [ToolCallFinished] event
// and the turn's [Result.ToolCalls] carry (IsError, Output), the model is
// told and the turn goes on, and Servers reports the *ServerError as the
// server's StartErr. Other problems that leave the [Host] usable go to
// Options.Warn. Cancelling ctx abandons the start.
func New(ctx context.Context, opts Options) (*Host, error) {
	settings, err := loadSettings(opts)
	if err != nil {
		return nil, err
	}
	h := &Host{settings: settings, opts: opts, mask: secret.FromSettings(settings), client: newHTTPClient()}
	h.life, h.stop = context.WithCancelCause(context.Background())
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
		h.warn(configload.UntrustedWarning(settings.Untrusted))
	}
	if err := h.start(ctx); err != nil {
		h.Close()
		return nil, hostError(err)
	}
	return h, nil
}

// loadSettings is a checked copy of Options.Config, or the user's
// configuration when it is nil.
func loadSettings(opts Options) (*config.Settings, error) {
	if opts.Config == nil {
		return LoadConfig(LoadOptions{})
	}
	s := *opts.Config
	if err := checkSettings(&s); err != nil {
		return nil, err
	}
	return &s, nil
}

// start does the work of New.
func (h *Host) start(ctx context.Context) error {
	s := h.settings
	h.engines = &engines{settings: s, fixed: h.opts.Provider, warn: h.warn, client: h.client,
		logRetry: func(b provider.Provider) { setRetry(b, 0, h) }}
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
		keep := s.AuditResultBytes
		if keep <= 0 {
			keep = -1 // none
		}
		log, err := audit.Open(s.Audit, h.mask, h.warn, keep)
		if err != nil {
			return configError(err)
		}
		h.audit = log
	}
	h.asker.Store(&askerBox{h.opts.Asker})
	h.SetOnChange(h.opts.OnChange)
	logLevel := "warning"
	if s.Debug {
		logLevel = "debug"
	}
	h.signIns = oauth.DefaultStore()
	mopts := servers.Options{
		ClientName: "mcphost", ClientVersion: h.opts.ClientVersion, Logger: h.logger,
		Builtin:     builtin.New,
		Elicitation: h.elicit,
		Sampling:    h.sample,
		LogLevel:    logLevel,
		Warn:        h.warn,
		OnChange:    h.changed,
		OnStart:     h.serverNews(),
		Lazy:        h.opts.Start == StartLazy,
		Background:  h.opts.Start == StartBackground,
		SignIns:     h.signIns,
		// Tokens join the config's secrets: no output shows them.
		OnSecret: h.mask.Add,
	}
	if h.backend != nil {
		// The wait is bounded for the model's first request; a Host
		// without a model is there to reach the servers, every one.
		mopts.StartWait = h.serverWait()
	}
	if h.opts.Asker != nil {
		mopts.SignIn = h.signIn
	}
	switch {
	case s.NoCache:
	case h.opts.CacheDir != "":
		mopts.CacheDir = h.opts.CacheDir
	case h.opts.Config == nil:
		// The user's configuration, the user's cache, as the command.
		mopts.CacheDir = userdirs.Default().Cache
	}
	h.manager = servers.NewManager(s.Servers, mopts)
	gotools, err := newGoTools(h.opts.Tools, h.warn, h.logger)
	if err != nil {
		return err
	}
	h.toolbox = &hostTools{m: h.manager, gotools: gotools}
	if !s.NoHooks {
		h.hooks = h.newHooks()
	}
	h.approval = h.newApproval()

	// The servers start while the engine describes the model: start-up
	// costs the slower of the two, not their sum.
	var (
		info    provider.ModelInfo
		showErr error
		wg      sync.WaitGroup
	)
	if modelName != "" {
		news := h.opts.OnStart
		if news == nil {
			news = func(StartNews) {}
		}
		news(StartNews{Model: modelName})
		wg.Go(func() {
			info, showErr = h.show(ctx, modelName)
			news(StartNews{Model: modelName, Done: true, Err: hostError(showErr)})
		})
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
	failed := make([]error, 0, len(startErrs))
	for _, e := range startErrs {
		h.warn(e.Error())
		e = serverError(e)
		failed = append(failed, e)
		var se *ServerError
		if errors.As(e, &se) {
			h.startErrs[se.Server] = se
		}
	}
	if enabled := countEnabled(s.Servers); !h.opts.AllowFailedStart && enabled > 0 && len(startErrs) == enabled {
		return &noServersError{configured: enabled, errs: failed, warned: h.opts.Warn != nil}
	}
	if err := gotools.checkServers(h.manager); err != nil {
		return err
	}
	if modelName != "" {
		info.Name = modelName
		if !info.Has(provider.CapabilityTools) {
			h.warn(fmt.Sprintf("model %q does not support tools (capabilities: %s): it answers without them; pick a tool-capable model such as qwen3 or llama3.1 to use MCP servers",
				modelName, strings.Join(info.Capabilities, ", ")))
		}
		h.model = info
		h.current.Store(&modelChoice{backend: h.backend, info: info})
		h.embedder = h.newEmbedder()
	}
	return nil
}

// startNews is the manager's news of a server's start as the Host's
// callers see it: its error worded as a *ServerError.
func startNews(n servers.StartNews) StartNews {
	return StartNews{Starting: n.Starting, Server: n.Server, Err: hostError(serverError(n.Err))}
}

// serverNews passes the manager's news of the servers' start on to
// Options.OnStart, if set.
func (h *Host) serverNews() func(servers.StartNews) {
	on := h.opts.OnStart
	if on == nil {
		return nil
	}
	return func(n servers.StartNews) {
		on(startNews(n))
	}
}

// newEmbedder returns what ranks tools by meaning with the embed-model
// setting, or nil without one or when the engine cannot embed.
func (h *Host) newEmbedder() toolselect.Embedder {
	name := h.settings.EmbedModel
	if name == "" {
		return nil
	}
	if strings.EqualFold(name, EmbedModelAuto) {
		e, canEmbed := h.backend.(provider.Embedder)
		l, canList := h.backend.(provider.Lister)
		if !canEmbed || !canList {
			h.logger.Debug("embed-model auto: the model's engine cannot embed; tools are ranked by their words", "engine", h.backend.Name())
			return nil
		}
		return toolselect.NewCache(&autoEmbedder{engine: h.backend.Name(), lister: l, embed: e, logger: h.logger})
	}
	if _, m, err := provider.ParseModel(name); err == nil {
		name = m
	}
	e, ok := h.backend.(provider.Embedder)
	if !ok {
		h.warn(fmt.Sprintf("embed-model %q is not used: the model's engine cannot embed; tools are ranked by their words", name))
		return nil
	}
	return toolselect.NewCache(toolselect.EmbedFunc(func(ctx context.Context, texts []string) ([][]float32, error) {
		return e.Embed(ctx, name, texts)
	}))
}

// newProvider returns the engine of the configured model and the model's
// name on it.
func (h *Host) newProvider() (provider.Provider, string, error) {
	s := h.settings
	if h.opts.Provider != nil && strings.TrimSpace(s.Model) == "" {
		return nil, "", configError(errors.New("no model is configured for the program's provider: name the model it serves in the config's model setting"))
	}
	engine, modelName, err := h.engines.parse(s.Model)
	if err != nil {
		return nil, "", configError(err)
	}
	if engine == provider.EngineOllama && s.ProviderURL != "" && h.opts.Provider == nil {
		// The URL would be ignored, and the error would be about Ollama.
		h.warn(fmt.Sprintf("--provider-url is set, but %q names an Ollama model: write -m openai:%s (or %s:) to use the server at that URL", s.Model, modelName, strings.Join(provider.Presets(), ":, ")))
	}
	backend, err := h.engines.get(engine)
	if err != nil {
		return nil, "", err
	}
	return backend, modelName, nil
}

// show asks the engine about the configured model and, when it does not
// have the model and the settings say to pull, pulls it first.
func (h *Host) show(ctx context.Context, model string) (provider.ModelInfo, error) {
	info, err := h.backend.Show(ctx, model)
	puller, canPull := h.backend.(provider.Puller)
	if !errors.Is(err, provider.ErrModelNotFound) || !h.settings.Pull || !canPull {
		return info, err
	}
	h.logger.Debug("pulling the model", "model", model)
	if err := puller.Pull(ctx, model, h.opts.PullProgress); err != nil {
		return info, err
	}
	return h.backend.Show(ctx, model)
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
		Subject: h.toolbox.subject,
		Builtin: func(server string) bool { return builtins[server] },
		Notice:  h.warn,
		Asker:   h.approvalAsker(h.opts.Asker),
	}
	if h.audit != nil {
		opts.Observer = h.audit
	}
	if h.hooks != nil {
		opts.Hooks = h.hooks
	}
	h.toolbox.policy = opts.Policy
	return approval.New(h.toolbox, opts)
}

// newHooks builds the runner of the configured hooks; nil when none.
func (h *Host) newHooks() *hooks.Runner {
	var id [8]byte
	_, _ = rand.Read(id[:])
	opts := hooks.Options{
		SessionID: hex.EncodeToString(id[:]), Model: h.settings.Model,
		Interactive: h.opts.Interactive, Logger: h.logger, Warn: h.warn,
	}
	if h.audit != nil {
		opts.Record = h.audit.ObserveHook
	}
	return hooks.New(h.settings.Hooks, opts)
}

// generationFor returns the generation parameters of model: its own (from
// the config's models section) over the general ones.
func (h *Host) generationFor(model string) provider.GenerationOptions {
	return h.settings.Generation.Over(h.settings.ModelGeneration[model])
}

// Settings returns the configuration the Host runs with. It must not be
// modified.
func (h *Host) Settings() *config.Settings { return h.settings }

// Model describes the Host's model as its engine reported it; the Name is
// empty when the Host has no model.
func (h *Host) Model() provider.ModelInfo { return h.model }

// ShowModel asks a model's engine about it, as a switch to it would. name
// is a model reference as -m takes it: "engine:model" names another
// engine than the Host's.
func (h *Host) ShowModel(ctx context.Context, name string) (provider.ModelInfo, error) {
	return guard(h, ctx, func(ctx context.Context) (provider.ModelInfo, error) {
		_, info, err := h.engines.resolve(ctx, name)
		return info, err
	})
}

// Mask hides the config's secrets (header and env values) in s.
func (h *Host) Mask(s string) string { return h.mask.String(s) }

func countEnabled(specs []config.ServerSpec) int {
	n := 0
	for _, s := range specs {
		if !s.Disabled {
			n++
		}
	}
	return n
}
