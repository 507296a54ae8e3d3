package servers

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
)

// cacheFormat is written into every cache file; a file of another format
// is ignored (and replaced by the next live list).
const cacheFormat = 1

// toolCache keeps each server's tool list between runs, so that a run
// knows the tools before any server starts and starts only the servers
// whose tools are called. A list is keyed by what defines the server
// (transport, command, args, env, working directory, URL, headers): a
// change to any of them is another server. The server's own name and
// version are kept with the list; a live list that differs replaces it.
type toolCache struct {
	dir string
}

// cachedList is one cache file.
type cachedList struct {
	Format int `json:"format"`
	// Server is what the server reported in initialize.
	Server struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"server"`
	// Tools are the definitions as the server sent them, unfiltered.
	Tools []json.RawMessage `json:"tools"`
	Saved time.Time         `json:"saved"`
}

// cacheable reports whether a server's list is worth keeping: a built-in
// server starts in microseconds.
func cacheable(spec config.ServerSpec) bool {
	return spec.Transport != config.TransportBuiltin && spec.Err == nil && !spec.Disabled
}

// path is the file of spec's list.
func (c *toolCache) path(spec config.ServerSpec) string {
	key, _ := json.Marshal(struct {
		Transport config.Transport  `json:"t"`
		Command   string            `json:"c"`
		Args      []string          `json:"a"`
		Env       map[string]string `json:"e"`
		Dir       string            `json:"d"`
		URL       string            `json:"u"`
		Headers   map[string]string `json:"h"`
		SSE       bool              `json:"s"`
	}{spec.Transport, spec.Command, spec.Args, spec.Env, spec.Dir, spec.URL, spec.Headers, spec.FallbackSSE})
	sum := sha256.Sum256(key)
	return filepath.Join(c.dir, "tools", hex.EncodeToString(sum[:16])+".json")
}

// load returns the cached list of spec, if there is one this mcphost can
// read.
func (c *toolCache) load(spec config.ServerSpec) ([]*mcp.Tool, *rawTools, bool) {
	if c == nil || !cacheable(spec) {
		return nil, nil, false
	}
	data, err := os.ReadFile(c.path(spec))
	if err != nil {
		return nil, nil, false
	}
	var list cachedList
	if json.Unmarshal(data, &list) != nil || list.Format != cacheFormat {
		return nil, nil, false
	}
	raw := newRawTools()
	tools := make([]*mcp.Tool, 0, len(list.Tools))
	for _, r := range list.Tools {
		var t mcp.Tool
		if json.Unmarshal(r, &t) != nil || t.Name == "" {
			return nil, nil, false
		}
		tools = append(tools, &t)
		raw.byName[t.Name] = r
	}
	return tools, raw, true
}

// store keeps a live list, replacing the file atomically; a failure to
// write only means the next run starts the server at once.
func (c *toolCache) store(spec config.ServerSpec, info *mcp.Implementation, tools []*mcp.Tool, raw *rawTools) {
	if c == nil || !cacheable(spec) {
		return
	}
	list := cachedList{Format: cacheFormat, Saved: time.Now().UTC()}
	if info != nil {
		list.Server.Name, list.Server.Version = info.Name, info.Version
	}
	for _, t := range tools {
		r := raw.get(t.Name)
		if r == nil {
			b, err := json.Marshal(t)
			if err != nil {
				return
			}
			r = b
		}
		list.Tools = append(list.Tools, r)
	}
	data, err := json.Marshal(list)
	if err != nil {
		return
	}
	path := c.path(spec)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tools.*.tmp")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		return
	}
	_ = os.Rename(tmp.Name(), path)
}

// sameList reports whether a live list is the cached one: same tools,
// defined the same way.
func sameList(cached, live *rawTools) bool {
	if cached == nil || live == nil {
		return false
	}
	cached.mu.Lock()
	defer cached.mu.Unlock()
	live.mu.Lock()
	defer live.mu.Unlock()
	if len(cached.byName) != len(live.byName) {
		return false
	}
	for name, r := range live.byName {
		if c, ok := cached.byName[name]; !ok || string(c) != string(r) {
			return false
		}
	}
	return true
}
