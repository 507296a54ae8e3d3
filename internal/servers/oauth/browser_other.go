//go:build !windows && !darwin

package oauth

// systemOpener is the command that opens url in the default browser: the
// freedesktop.org opener, on Linux and the BSDs.
func systemOpener(url string) []string { return []string{"xdg-open", url} }
