package toolcall

import "strings"

// Command-R writes its calls as a JSON list in a fenced block after
// "Action:":
//
//	Action: ```json
//	[{"tool_name": "NAME", "parameters": {…}}]
//	```
//
// (Command R7B puts the same list between <|START_ACTION|> and
// <|END_ACTION|>, a tag like any other.) Its pseudo-tool
// "directly-answer" means no call.

// actionSpan reads the calls after "Action:" at s[at:].
func actionSpan(s string, at int) (span, bool) {
	k := skipSpace(s, at+len("Action:"))
	fenced := strings.HasPrefix(s[k:], "```")
	if fenced {
		nl := strings.IndexByte(s[k:], '\n')
		if nl < 0 {
			return span{}, false
		}
		k = skipSpace(s, k+nl+1)
	}
	if k >= len(s) || (s[k] != '[' && s[k] != '{') {
		return span{}, false
	}
	calls, end, ok := parseOne(s, k, FormatCommandR)
	if !ok {
		return span{}, false
	}
	if fenced {
		e := skipSpace(s, end)
		end = e + len(prefixAt(s, e, "```"))
	}
	kept := calls[:0]
	for _, c := range calls {
		if n := strings.ReplaceAll(c.Name, "_", "-"); n != "directly-answer" {
			kept = append(kept, c)
		}
	}
	return span{start: at, end: end, calls: kept}, len(kept) > 0
}
