package provider

import (
	"slices"
	"strings"
)

// API is the protocol an engine is spoken to in.
type API string

// The two protocols mcphost speaks: Ollama's own (/api/chat), served by
// provider/ollama, and OpenAI's chat completions, served by provider/openai
// for every other engine.
const (
	APIOllama API = "ollama"
	APIOpenAI API = "openai"
)

// The names of the engines of the table, for the code that treats one of
// them apart (Ollama is the default; OpenAI's key is only for OpenAI;
// llama.cpp, LM Studio and vLLM say more about their models than
// /v1/models does). A preset that needs nothing of its own has a row in
// Engines and no constant.
const (
	EngineOllama   = "ollama"
	EngineOpenAI   = "openai"
	EngineLlamaCpp = "llamacpp"
	EngineLMStudio = "lmstudio"
	EngineVLLM     = "vllm"
)

// Engine is one row of the engine table: an engine a model reference names
// without any configuration ("-m NAME:MODEL"), which is also a "type" a
// config file's "providers" entry may have.
type Engine struct {
	// Name is the prefix of model references ("llamacpp" in
	// "llamacpp:qwen3") and the type a "providers" entry gives, in lower
	// case.
	Name string
	// Aliases are other names people give the engine as a "providers"
	// type ("llama-server"). Names and aliases are compared without regard
	// to case, spaces, dots, dashes and underscores, so "llama.cpp" and
	// "LM Studio" need no alias.
	Aliases []string
	// Slash means "NAME/MODEL" names the engine too, as "NAME:MODEL"
	// does: Ollama's own way of writing "ollama/qwen3:8b".
	Slash bool
	// API is how the engine is spoken to.
	API API
	// URL is where the engine listens unless told otherwise: the API's
	// base for APIOpenAI, the server's root for APIOllama.
	URL string
	// Display is how messages name the software ("llama.cpp", "LM
	// Studio").
	Display string
	// Start is the command that starts it ("lms server start"), "" for an
	// engine no one starts locally (OpenAI's own).
	Start string
	// Hint is what to do when it cannot be reached, said after "cannot
	// reach llama.cpp at URL: ".
	Hint string
	// Window says how the engine's context window is set ("llama-server
	// -c N"), for a conversation that outgrew it; "" when no request or
	// option of a usual start sets it.
	Window string
	// Tools says how to have it give models tools, for a server that
	// refused them; "" when it depends on the model.
	Tools string
	// NotServed says which models it serves, for a model it does not,
	// when it cannot list them; "" when nothing general can be said.
	NotServed string
	// OwnedBy are the owned_by values its /v1/models entries carry, by
	// which a server reached as "openai:" is told to be this engine.
	OwnedBy []string
	// OnRequest means "mcphost models" asks it only when --provider-url
	// moves it: OpenAI itself needs a key and serves hundreds of models.
	OnRequest bool
}

// Engines returns the engine table, in the order help texts list it. A new
// engine that speaks one of the two APIs is one more row here: the parsing
// of model references, the "type" of a config file's "providers" entries,
// "mcphost models", the messages of the OpenAI-compatible backend and the
// command's help all read this table.
func Engines() []Engine {
	return []Engine{
		{
			Name: EngineOllama, Slash: true, API: APIOllama, URL: "http://127.0.0.1:11434", Display: "Ollama",
			Start: "ollama serve", Hint: `is "ollama serve" running?`,
			OwnedBy: []string{"library", "ollama"},
		},
		{
			Name: EngineOpenAI, Aliases: []string{"openai-compatible"}, API: APIOpenAI, URL: "https://api.openai.com/v1",
			Display: "the OpenAI-compatible server", Hint: "is the server running there? Check --provider-url",
			OnRequest: true,
		},
		{
			Name: EngineLlamaCpp, Aliases: []string{"llama-server"}, API: APIOpenAI, URL: "http://127.0.0.1:8080/v1",
			Display: "llama.cpp", Start: "llama-server -m model.gguf --jinja",
			Hint:    `is it running? Start it with "llama-server -m model.gguf --jinja" (it listens on port 8080), or give its address with --provider-url`,
			Window:  "llama-server -c N",
			Tools:   `start llama-server with --jinja, e.g. "llama-server -m model.gguf --jinja"`,
			OwnedBy: []string{"llamacpp"},
		},
		{
			Name: EngineLMStudio, API: APIOpenAI, URL: "http://127.0.0.1:1234/v1",
			Display: "LM Studio", Start: "lms server start",
			Hint:    `is its server running? Start it with "lms server start" or from the Developer tab (it listens on port 1234), or give its address with --provider-url`,
			Window:  "the context length LM Studio loads it with: lms load MODEL --context-length N",
			OwnedBy: []string{"organization_owner"},
		},
		{
			Name: EngineVLLM, API: APIOpenAI, URL: "http://127.0.0.1:8000/v1",
			Display: "vLLM", Start: "vllm serve MODEL",
			Hint:      `is it running? Start it with "vllm serve MODEL --enable-auto-tool-choice --tool-call-parser hermes" (it listens on port 8000), or give its address with --provider-url`,
			Window:    "vllm serve --max-model-len N",
			Tools:     `start vLLM with tool calling on, e.g. "vllm serve MODEL --enable-auto-tool-choice --tool-call-parser hermes"`,
			NotServed: "vLLM serves the model it was started with (vllm serve MODEL), under that name or --served-model-name",
			OwnedBy:   []string{"vllm"},
		},
	}
}

// LookupEngine finds the row of an engine by its name or an alias, written
// in any case, with or without spaces, dots, dashes and underscores
// ("llama.cpp", "LM Studio").
func LookupEngine(name string) (Engine, bool) {
	key := engineKey(name)
	for _, e := range Engines() {
		if engineKey(e.Name) == key || slices.ContainsFunc(e.Aliases, func(a string) bool { return engineKey(a) == key }) {
			return e, true
		}
	}
	return Engine{}, false
}

// EngineNames returns the names of the table's rows, in the order help
// texts list them; with api set, only those of engines spoken to in that
// API.
func EngineNames(api API) []string {
	var names []string
	for _, e := range Engines() {
		if api == "" || e.API == api {
			names = append(names, e.Name)
		}
	}
	return names
}

// engineKey is a name as LookupEngine compares it.
func engineKey(s string) string {
	return strings.ToLower(strings.NewReplacer(" ", "", "-", "", "_", "", ".", "").Replace(strings.TrimSpace(s)))
}

// Presets returns the names of the OpenAI-compatible engines at a usual
// local address, which --provider-url moves as it moves openai:
// ("llamacpp", "lmstudio", "vllm").
func Presets() []string {
	var names []string
	for _, e := range Engines() {
		if e.API == APIOpenAI && !e.OnRequest {
			names = append(names, e.Name)
		}
	}
	return names
}
