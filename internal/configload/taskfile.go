package configload

import (
	"fmt"
	"path/filepath"

	"github.com/mcphost/mcphost/config"
)

// TrustedFile reports whether a file the user runs that may start
// programs and set approval rules, as a project config file can (an eval
// task file kept in a repository), is trusted: recorded in the trust
// store with this content at this path, or every project file trusted
// for this run (--trust-project, MCPHOST_TRUST_PROJECT). data is the
// content read, the bytes that are hashed; the ProjectFile returned is
// what TrustStore.Trust records.
func TrustedFile(opts LoadOptions, path string, data []byte) (config.ProjectFile, bool, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return config.ProjectFile{}, false, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return config.ProjectFile{}, false, &config.Error{File: path, Message: fmt.Sprintf("cannot resolve the file's path: %v", err), Err: err}
	}
	pf := config.ProjectFile{Path: abs, SHA256: ContentHash(data), Data: data, HomeDir: o.HomeDir, WorkDir: o.WorkDir}
	all, err := o.trustAll()
	if err != nil || all {
		return pf, all, err
	}
	trusted, err := o.trustStore().TrustedFile(pf)
	return pf, trusted, err
}
