package oauth

// systemOpener is the command that opens url in the default browser: the
// URL handler of the shell, which, unlike "start", takes the URL as one
// argument whatever it holds.
func systemOpener(url string) []string {
	return []string{"rundll32", "url.dll,FileProtocolHandler", url}
}
