package configload

// Helpers for other readers of mcphost's file formats (script front
// matter), so that key spellings and variable names mean the same
// everywhere.

// IsVarName reports whether name can be a ${…} variable: letters, digits
// and underscores, not starting with a digit.
func IsVarName(name string) bool { return isVarName(name) }

// NormKey folds the spellings of a key (camelCase, snake_case,
// kebab-case) into one, so mcpServers and mcp-servers are the same key.
func NormKey(k string) string { return normKey(k) }

// AsMap returns v as a string-keyed map; YAML decodes a mapping with a
// non-string key as map[any]any, whose keys are rendered as text.
func AsMap(v any) (map[string]any, bool) { return asMap(v) }
