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
// is ignored (and replaced by the next live list). Format 2 added the
// prompts, resources and templates and what the server offers.
const cacheFormat = 2

// toolCache keeps each server's catalogue (its tools, prompts, resources
// and resource templates) between runs, so that a run knows them before
// any server starts and starts only the servers it uses. A catalogue is
// keyed by what defines the server (transport, the command's resolved
// file, args, env, working directory, URL, headers, whether it is given
// roots; see cacheKey) and by what it runs (the executable's size and
// modification time, the script or package version a launcher runs; see
// launchedIdentity): a change to any of them is another server, so an
// upgrade in place is listed afresh. The server's own name and version are
// kept with it; a live catalogue that differs replaces it.
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
	// Offers says which lists the server has.
	Offers offers `json:"offers"`
	// Tools are the definitions as the server sent them, unfiltered.
	Tools     []json.RawMessage       `json:"tools"`
	Prompts   []*mcp.Prompt           `json:"prompts,omitempty"`
	Resources []*mcp.Resource         `json:"resources,omitempty"`
	Templates []*mcp.ResourceTemplate `json:"templates,omitempty"`
	Saved     time.Time               `json:"saved"`
}

// cacheable reports whether a server's list is worth keeping: a built-in
// server starts in microseconds.
func cacheable(spec config.ServerSpec) bool {
	return spec.Transport != config.TransportBuiltin && spec.Err == nil && !spec.Disabled
}

// path is the file of spec's list.
func (c *toolCache) path(spec config.ServerSpec) string {
	sum := sha256.Sum256(cacheKey(spec))
	return filepath.Join(c.dir, "tools", hex.EncodeToString(sum[:16])+".json")
}

// cacheKey is everything that decides which tools a server offers, so
// that two servers that differ in any of it never share a cached list:
// the same command started in two projects may be two different programs
// (a relative path, a script beside it), and a cached list is what the
// tools are offered from before the server runs. The working directory is
// mcphost's own when the spec has none, where the server will start; the
// command is the file it resolves to now. Only the key's hash names the
// file: header and environment values are never written out.
func cacheKey(spec config.ServerSpec) []byte {
	dir := spec.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	command := spec.Command
	var program []string
	if spec.Transport == config.TransportStdio || spec.Transport == "" {
		command = resolvedCommand(spec.Command, dir)
		// The same path may hold another version tomorrow.
		program = append(program, fileIdentity(command))
		program = append(program, launchedIdentity(spec.Command, command, spec.Args, dir)...)
	}
	key, _ := json.Marshal(struct {
		Transport config.Transport  `json:"t"`
		Command   string            `json:"c"`
		Args      []string          `json:"a"`
		Env       map[string]string `json:"e"`
		Dir       string            `json:"d"`
		URL       string            `json:"u"`
		Headers   map[string]string `json:"h"`
		SSE       bool              `json:"s"`
		// A server given roots may offer other tools (server-everything's
		// get-roots-list); which roots does not matter.
		Roots bool `json:"r"`
		// Program is the identity of the executable and of the script
		// or package a launcher runs (see launchedIdentity).
		Program []string `json:"p,omitempty"`
	}{spec.Transport, command, spec.Args, spec.Env, dir, spec.URL, spec.Headers, spec.FallbackSSE, len(spec.Roots) > 0, program})
	return key
}

// resolvedCommand is the file a stdio server's command names, as a start
// from dir would find it, links followed; the command as written when it
// cannot be found (its start fails, and nothing is cached).
func resolvedCommand(command, dir string) string {
	path, err := resolveCommand(command, dir)
	if err != nil {
		return command
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	return path
}

// load returns the cached catalogue of spec, if there is one this mcphost
// can read, and its fingerprint (see catalog.fingerprint).
func (c *toolCache) load(spec config.ServerSpec) (*catalog, bool) {
	if c == nil || !cacheable(spec) {
		return nil, false
	}
	data, err := os.ReadFile(c.path(spec))
	if err != nil {
		return nil, false
	}
	var list cachedList
	if json.Unmarshal(data, &list) != nil || list.Format != cacheFormat {
		return nil, false
	}
	cat := &catalog{raw: newRawTools(), offers: list.Offers, prompts: list.Prompts, resources: list.Resources, templates: list.Templates}
	cat.info.Name, cat.info.Version = list.Server.Name, list.Server.Version
	for _, r := range list.Tools {
		var t mcp.Tool
		if json.Unmarshal(r, &t) != nil || t.Name == "" {
			return nil, false
		}
		cat.tools = append(cat.tools, &t)
		cat.raw.byName[t.Name] = r
	}
	return cat, true
}

// store keeps a live catalogue, replacing the file atomically; a failure
// to write only means the next run starts the server at once.
func (c *toolCache) store(spec config.ServerSpec, cat *catalog) {
	if c == nil || !cacheable(spec) {
		return
	}
	list, ok := cat.file()
	if !ok {
		return
	}
	list.Saved = time.Now().UTC()
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
