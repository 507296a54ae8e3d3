package configload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/mcphost/mcphost/config"
)

// configFile is one decoded config file.
type configFile struct {
	path string
	// projectDir is ${PROJECT_DIR} for this file's servers.
	projectDir string
	// settings holds the recognised settings under their canonical keys.
	settings map[string]any
	// servers is the mcpServers object with the case of its keys kept;
	// nil when the file has none, empty when it says "no servers".
	servers map[string]any
	// approval is the raw "approval" section, read by Load.
	approval any
	// roots is the raw top-level "roots": the roots of this file's
	// servers that have none of their own.
	roots any
	// sections are the other structured sections ("models", "hooks"),
	// raw, by canonical key.
	sections map[string]any
	// providers is the raw "providers" section (named engines).
	providers any
	// project marks a file of the working directory: it is used only when
	// trusted, its approval rules only tighten the user's, and it cannot
	// turn on yolo.
	project bool
	// scripts are the project's files that a trusted project file runs
	// (config.ProjectFile.Scripts), which the built-in fs server must not
	// write.
	scripts map[string]string
	// warnings name the file's unknown keys, top-level and in its server
	// entries, with the key probably meant.
	warnings []string
}

// fileReader reads config files and words their problems.
type fileReader struct {
	homeDir, workDir string
}

// fail builds the *Error for a problem in file path.
func (r fileReader) fail(path, field string, err error, format string, args ...any) *config.Error {
	return &config.Error{
		File: path, Field: field, Message: fmt.Sprintf(format, args...),
		HomeDir: r.homeDir, WorkDir: r.workDir, Err: err,
	}
}

// read reads and decodes the config file at path. The format follows the
// extension: .json is JSON and anything else YAML, which also reads most
// JSON.
func (r fileReader) read(path, projectDir string) (*configFile, error) {
	data, err := r.readBytes(path)
	if err != nil {
		return nil, err
	}
	return r.decode(path, projectDir, data)
}

// readBytes reads the config file at path: a regular file of at most
// maxConfigBytes (see readRegular). When it is not one, the error
// satisfies unreadable, for the caller to skip a file found by its name
// with a warning (see skipWarning).
func (r fileReader) readBytes(path string) ([]byte, error) {
	data, err := readRegular(path, maxConfigBytes)
	if err != nil {
		return nil, r.fail(path, "", err, "%s", readProblem(err))
	}
	return data, nil
}

// skipWarning is the warning for a config file found by its name that
// readBytes would not read.
func (r fileReader) skipWarning(err error) string {
	return "skipping " + err.Error()
}

// decodeDoc decodes data as JSON when path ends in .json and as YAML
// otherwise (YAML also reads JSON).
func (r fileReader) decodeDoc(path string, data []byte) (any, error) {
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return r.decodeJSON(path, data)
	}
	return r.decodeYAML(path, data)
}

// decode decodes data, the contents of the config file at path.
func (r fileReader) decode(path, projectDir string, data []byte) (*configFile, error) {
	doc, err := r.decodeDoc(path, data)
	if err != nil {
		return nil, err
	}
	f := &configFile{path: path, projectDir: projectDir, settings: map[string]any{}, sections: map[string]any{}}
	if doc == nil {
		return f, nil // an empty file configures nothing
	}
	top, ok := asMap(doc)
	if !ok {
		return nil, r.fail(path, "", nil, `the file must hold an object of settings and "mcpServers" at the top level`)
	}
	shown := config.DisplayPath(path, r.homeDir, r.workDir)
	f.warnings = fileKeyWarnings(shown, top)
	for _, k := range sortedKeys(top) {
		nk := normKey(k)
		if nk == "mcpservers" {
			if top[k] == nil {
				continue
			}
			servers, ok := asMap(top[k])
			if !ok {
				return nil, r.fail(path, "mcpServers", nil, `"mcpServers" must be an object with one entry per server name`)
			}
			f.servers = servers
			f.warnings = append(f.warnings, serverKeyWarnings(shown, servers)...)
			continue
		}
		if nk == keyApproval {
			f.approval = top[k]
			continue
		}
		if nk == "roots" {
			f.roots = top[k]
			continue
		}
		if nk == keyModels || nk == keyHooks {
			f.sections[nk] = top[k]
			if nk == keyHooks {
				f.warnings = append(f.warnings, hookKeyWarnings(shown, top[k])...)
			}
			continue
		}
		if nk == keyProviders {
			f.providers = top[k]
			continue
		}
		// Other keys belong to other tools sharing the file (Claude's
		// .mcp.json, old mcphost versions), so they are not errors.
		if key, ok := settingKey(k); ok && top[k] != nil {
			f.settings[key] = top[k]
		}
	}
	return f, nil
}

// decodeJSON decodes a JSON config file, naming the line of a syntax error.
func (r fileReader) decodeJSON(path string, data []byte) (any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var doc any
	err := json.Unmarshal(data, &doc)
	if err == nil {
		return doc, nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, se.Offset)
		return nil, r.fail(path, "", err, "line %d, column %d: %v: fix the JSON syntax", line, col, se)
	}
	return nil, r.fail(path, "", err, "not valid JSON: %v", err)
}

// decodeYAML decodes a YAML config file, naming the line of a mistake.
func (r fileReader) decodeYAML(path string, data []byte) (any, error) {
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, r.fail(path, "", err, "%s: fix the YAML syntax", yamlProblem(data, err))
	}
	return doc, nil
}

// lineCol turns a byte offset just past an error into a 1-based line and column.
func lineCol(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - bytes.LastIndexByte(before, '\n')
	if col > 1 {
		col-- // Offset points after the offending byte.
	}
	return line, col
}
