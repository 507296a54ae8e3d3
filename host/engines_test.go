package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/openaitest"
	"github.com/mcphost/mcphost/provider"
)

// TestSwitchAcrossEngines talks to Ollama, switches the conversation to a
// llama.cpp server and to an engine a config names, and back: each turn
// goes to its engine with the whole conversation.
func TestSwitchAcrossEngines(t *testing.T) {
	llama := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "qwen.gguf", ContextLength: 16384}}})
	defer llama.Close()
	llama.Enqueue(openaitest.Reply{Content: "from llama.cpp"})
	vllm := openaitest.NewServer(openaitest.Options{Flavor: openaitest.VLLM, APIKey: "vllm-secret-key", Models: []openaitest.Model{{ID: "Qwen/Qwen3-8B", ContextLength: 40960}}})
	defer vllm.Close()
	vllm.Enqueue(openaitest.Reply{Content: "from vLLM"})

	settings := &config.Settings{MaxSteps: 5, NumCtx: 8192,
		ProviderURL: llama.BaseURL,
		Providers:   []config.Engine{{Name: "gpu-box", Type: provider.EngineVLLM, URL: vllm.BaseURL, APIKey: "vllm-secret-key"}}}
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	settings.OllamaHost = model.URL
	settings.Model = "ollama:tiny"
	h, err := host.New(context.Background(), host.Options{Config: settings})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	conv := h.Conversation()
	if _, err := conv.Prompt(ctx, "one"); err != nil {
		t.Fatal(err)
	}
	info, err := conv.SetModel(ctx, "llamacpp:whatever")
	if err != nil || info.ContextLength != 16384 || !info.FixedContext {
		t.Fatalf("switch to llama.cpp: %+v, %v", info, err)
	}
	if res, err := conv.Prompt(ctx, "two"); err != nil || res.Answer != "from llama.cpp" {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := conv.SetModel(ctx, "gpu-box:Qwen/Qwen3-8B"); err != nil {
		t.Fatal(err)
	}
	if res, err := conv.Prompt(ctx, "three"); err != nil || res.Answer != "from vLLM" {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := conv.SetModel(ctx, "tiny"); err != nil {
		t.Fatal(err)
	}
	if _, err := conv.Prompt(ctx, "four"); err != nil {
		t.Fatal(err)
	}
	if n := len(model.Requests()); n != 2 {
		t.Errorf("Ollama got %d requests, want 2", n)
	}
	if r := vllm.Requests(); len(r) != 1 || r[0].Model != "Qwen/Qwen3-8B" || len(r[0].Messages) != 5 || r[0].Authorization != "Bearer vllm-secret-key" {
		t.Errorf("vLLM requests = %+v", r)
	}
	// A model the engine does not serve leaves the conversation where it was.
	if _, err := conv.SetModel(ctx, "gpu-box:nope"); !errors.Is(err, host.ErrModelNotFound) || !strings.Contains(err.Error(), "Qwen/Qwen3-8B") {
		t.Errorf("err = %v", err)
	}
	if conv.Model().Name != "tiny" {
		t.Errorf("model after a failed switch: %q", conv.Model().Name)
	}
	if got := h.Mask("key vllm-secret-key"); got != "key ***" {
		t.Errorf("the engine's key is not masked: %q", got)
	}
}

func TestPullOnStart(t *testing.T) {
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	model.Pullable(ollamatest.Model{Name: "qwen3:8b"})
	var last provider.PullProgress
	cfg := noFiles("qwen3:8b", model.URL)
	cfg.Pull = true
	h, err := host.New(context.Background(), host.Options{Config: cfg, PullProgress: func(p provider.PullProgress) { last = p }})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if last.Status != "success" || h.Model().Name != "qwen3:8b" || len(model.PullRequests()) != 1 {
		t.Errorf("last progress %+v, model %q", last, h.Model().Name)
	}
	// Without Pull, a missing model is the error it always was.
	_, err = host.New(context.Background(), host.Options{Config: noFiles("other:1b", model.URL)})
	if !errors.Is(err, host.ErrModelNotFound) || !strings.Contains(err.Error(), `run "ollama pull other:1b"`) {
		t.Errorf("err = %v", err)
	}
}

func TestModelsListsEveryEngine(t *testing.T) {
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b", Capabilities: []string{"completion", "tools"}, ContextLength: 40960})
	defer model.Close()
	lm := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LMStudio, Models: []openaitest.Model{{ID: "qwen3-4b", Loaded: true, ContextLength: 8192}}})
	defer lm.Close()
	settings := &config.Settings{MaxSteps: 5, OllamaHost: model.URL,
		Providers: []config.Engine{
			{Name: "lmstudio", Type: provider.EngineLMStudio, URL: lm.BaseURL},
			// Nothing listens here: reported, not waited for.
			{Name: "llamacpp", Type: provider.EngineLlamaCpp, URL: "http://127.0.0.1:1/v1"},
			{Name: "vllm", Type: provider.EngineVLLM, URL: "http://127.0.0.1:1/v1"},
		}}
	h, err := host.New(context.Background(), host.Options{Config: settings, ToolsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	models, statuses, err := h.Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range models {
		got = append(got, m.Engine+":"+m.Name)
	}
	if strings.Join(got, " ") != "ollama:qwen3:8b lmstudio:qwen3-4b" || models[1].ContextLength != 8192 || models[0].ContextLength != 40960 {
		t.Errorf("models = %v (%+v)", got, models)
	}
	// The engines that answered, and one that did not; the table's other
	// rows are asked at their usual addresses, where nothing may listen.
	for _, st := range statuses {
		switch st.Name {
		case "ollama", "lmstudio":
			if st.Err != nil || st.Models != 1 {
				t.Errorf("status %+v", st)
			}
		case "llamacpp":
			if !errors.Is(st.Err, host.ErrUnreachable) {
				t.Errorf("llamacpp: %v", st.Err)
			}
		}
	}
}

func TestProviderURLWithAnOllamaModelWarns(t *testing.T) {
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3"})
	defer model.Close()
	var warnings []string
	cfg := noFiles("qwen3", model.URL)
	cfg.ProviderURL = "http://127.0.0.1:8080/v1"
	h, err := host.New(context.Background(), host.Options{Config: cfg, Warn: func(s string) { warnings = append(warnings, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "write -m openai:qwen3") {
		t.Errorf("warnings = %q", warnings)
	}
}

// TestMisspeltEngineIsAConfigError: a slip in a model reference's engine
// is a configuration error saying the reference meant, found before any
// engine is asked, where it was an Ollama model name that took 3.5 s of
// retries to end in "cannot reach Ollama". The engines a config names
// count as names too.
func TestMisspeltEngineIsAConfigError(t *testing.T) {
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	settings := func(ref string) *config.Settings {
		return &config.Settings{MaxSteps: 5, Model: ref, OllamaHost: model.URL,
			Providers: []config.Engine{{Name: "gpu-box", Type: provider.EngineVLLM, URL: closedURL(t) + "/v1"}}}
	}
	for ref, want := range map[string]string{
		"olama:qwen3:8b":        `unknown engine "olama" in model "olama:qwen3:8b": did you mean ollama:qwen3:8b?`,
		"gpu-bx:Qwen/Qwen3-32B": `unknown engine "gpu-bx" in model "gpu-bx:Qwen/Qwen3-32B": did you mean gpu-box:Qwen/Qwen3-32B?`,
	} {
		_, err := host.New(context.Background(), host.Options{Config: settings(ref)})
		if !errors.Is(err, host.ErrConfig) || err == nil || err.Error() != want {
			t.Errorf("-m %s: err = %v, want a configuration error %q", ref, err, want)
		}
	}
	if n := len(model.Requests()); n != 0 {
		t.Errorf("Ollama was asked %d times about a misspelt engine", n)
	}
	// The same on a switch mid-conversation, which leaves the model as it was.
	h, err := host.New(context.Background(), host.Options{Config: settings("qwen3:8b")})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	conv := h.Conversation()
	if _, err := conv.SetModel(context.Background(), "vlm:Qwen/Qwen3-8B"); !errors.Is(err, host.ErrConfig) || !strings.Contains(err.Error(), "did you mean vllm:Qwen/Qwen3-8B?") {
		t.Errorf("SetModel: %v", err)
	}
	if conv.Model().Name != "qwen3:8b" {
		t.Errorf("model after a misspelt switch: %q", conv.Model().Name)
	}
}

// TestEveryTableEngineIsBuiltAndListed walks the engine table through the
// Host: "mcphost models" asks every row (OpenAI's with --provider-url), and
// one that does not answer is named by its row's display name, with its
// row's hint. A preset added to the table needs nothing more to get here.
func TestEveryTableEngineIsBuiltAndListed(t *testing.T) {
	dead := closedURL(t)
	cfg := noFiles("", dead)
	cfg.ProviderURL = dead + "/v1"
	h, err := host.New(context.Background(), host.Options{Config: cfg, ToolsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	_, statuses, err := h.Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]host.EngineStatus{}
	for _, st := range statuses {
		byName[st.Name] = st
	}
	for _, e := range provider.Engines() {
		st, ok := byName[e.Name]
		if !ok {
			t.Errorf("%s was not asked for its models", e.Name)
			continue
		}
		if !errors.Is(st.Err, host.ErrUnreachable) || !strings.Contains(st.Err.Error(), "cannot reach "+e.Display+" at ") || !strings.HasSuffix(st.Err.Error(), e.Hint) {
			t.Errorf("%s: %v; want it named %q with the hint %q", e.Name, st.Err, e.Display, e.Hint)
		}
	}
	if len(statuses) != len(provider.Engines()) {
		t.Errorf("statuses %+v: want one per row of the table", statuses)
	}
}
