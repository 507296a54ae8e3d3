package ui

import "testing"

// TestSplitRepliesKeepsTypedKeys: keys typed around the terminal's
// answers to the background query are kept, in order, for the prompt.
func TestSplitRepliesKeepsTypedKeys(t *testing.T) {
	got := []byte("hi\n\x1b]11;rgb:ffff/ffff/ffff\x1b\\yo\x1b[12;1R")
	replies, typed := splitReplies(got)
	if string(typed) != "hi\nyo" {
		t.Errorf("typed %q, want %q", typed, "hi\nyo")
	}
	if th, ok := themeOfOSC11(replies); !ok || th != Light {
		t.Errorf("the replies %q give %v, %v; want Light", replies, th, ok)
	}
}
