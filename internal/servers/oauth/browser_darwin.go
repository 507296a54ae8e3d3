package oauth

// systemOpener is the command that opens url in the default browser.
func systemOpener(url string) []string { return []string{"open", url} }
