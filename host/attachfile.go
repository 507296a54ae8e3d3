package host

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mcphost/mcphost/internal/termtext"
)

// The largest files "@path" attaches: a text file goes whole into the
// context window, where 256 KiB is already some 64 000 tokens; an image
// goes to the engine as it is.
const (
	MaxAttachTextBytes  = 256 << 10
	MaxAttachImageBytes = 10 << 20
)

// ErrAttachment is the error (wrapped) of a prompt whose "@path" names a
// file that cannot be attached: missing, a directory, binary or too large.
// The prompt is not sent.
var ErrAttachment = errors.New("cannot attach a file")

// fileRefPattern finds "@word" at the start of a prompt or after a space,
// so that an e-mail address (a@b.com) is never taken for one.
var fileRefPattern = regexp.MustCompile(`(^|\s)@(\S+)`)

// fileRef is one "@path" of a prompt that names a file to attach.
type fileRef struct {
	// written is the path as the user wrote it, which names the file in
	// the message; path is where it is on disk.
	written, path string
}

// fileRefs returns the "@path" words of text that name files, in order:
// those that exist, and those written as paths (./x, ../x, /x, ~/x, or
// dir/x in an existing dir) that do not, which are errors. Words that
// are neither ("@alice", "@org/team") and the resources of servers (skip
// reports those) are left alone. home expands "~/".
func fileRefs(text, home string, skip func(word string) bool) ([]fileRef, error) {
	var refs []fileRef
	seen := map[string]bool{}
	for _, m := range fileRefPattern.FindAllStringSubmatch(text, -1) {
		word := m[2]
		if skip(word) {
			continue
		}
		ref, ok, err := resolveFileRef(word, home)
		if err != nil {
			return nil, err
		}
		if key, _ := filepath.Abs(ref.path); ok && !seen[key] {
			seen[key] = true
			refs = append(refs, ref)
		}
	}
	return refs, nil
}

// resolveFileRef decides whether word (after the "@") names a file.
func resolveFileRef(word, home string) (fileRef, bool, error) {
	// A path at the end of a sentence: "look at @notes.md."
	candidates := []string{word}
	if trimmed := strings.TrimRight(word, ".,;:!?)'\""); trimmed != word && trimmed != "" {
		candidates = append(candidates, trimmed)
	}
	explicit := func(w string) bool {
		return strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") || strings.HasPrefix(w, "~/") ||
			filepath.IsAbs(w) || strings.HasPrefix(w, "/")
	}
	onDisk := func(w string) string {
		if rest, ok := strings.CutPrefix(w, "~/"); ok && home != "" {
			return filepath.Join(home, filepath.FromSlash(rest))
		}
		return filepath.FromSlash(w)
	}
	for _, w := range candidates {
		path := onDisk(w)
		info, err := os.Stat(path)
		switch {
		case err == nil && info.Mode().IsRegular():
			return fileRef{written: w, path: path}, true, nil
		case err == nil && info.IsDir() && (explicit(w) || strings.Contains(w, "/")):
			return fileRef{}, false, fmt.Errorf("%w: @%s is a directory: attach its files one by one (Tab completes them); the prompt was not sent", ErrAttachment, w)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return fileRef{}, false, fmt.Errorf("%w: @%s: %v; the prompt was not sent", ErrAttachment, w, unwrapPathError(err))
		}
	}
	// Nothing there. A path the user clearly meant is an error; a word
	// that merely starts with "@" is text.
	w := candidates[len(candidates)-1]
	dir, _, hasDir := strings.Cut(w, "/")
	meant := explicit(w)
	if !meant && hasDir && dir != "" {
		info, err := os.Stat(onDisk(dir))
		meant = err == nil && info.IsDir()
	}
	if meant {
		return fileRef{}, false, fmt.Errorf("%w: @%s: no such file: check the path (Tab completes it); the prompt was not sent", ErrAttachment, w)
	}
	return fileRef{}, false, nil
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// attachedFile is a file read for a message.
type attachedFile struct {
	// part is the text added to the message; image the bytes for a
	// vision model, if any.
	part  string
	image []byte
	att   Attachment
}

// readFileRef reads ref for a message: a text file as a fenced block
// under a header naming it, an image as an image for a vision model (and
// described for others). A binary file or one over the caps is an error.
func readFileRef(ref fileRef, vision bool) (attachedFile, error) {
	info, err := os.Stat(ref.path)
	if err != nil {
		return attachedFile{}, fmt.Errorf("%w: @%s: %v; the prompt was not sent", ErrAttachment, ref.written, unwrapPathError(err))
	}
	if info.Size() > MaxAttachImageBytes {
		return attachedFile{}, fmt.Errorf("%w: @%s is %s, more than can be attached (%s for a text file, %s for an image); the prompt was not sent",
			ErrAttachment, ref.written, termtext.Bytes(int(info.Size())), kib(MaxAttachTextBytes), kib(MaxAttachImageBytes))
	}
	data, err := os.ReadFile(ref.path)
	if err != nil {
		return attachedFile{}, fmt.Errorf("%w: @%s: %v; the prompt was not sent", ErrAttachment, ref.written, unwrapPathError(err))
	}
	att := Attachment{File: ref.written, Bytes: len(data)}
	mime := http.DetectContentType(data)
	switch {
	case strings.HasPrefix(mime, "image/"):
		att.MIMEType, att.Kind = mime, "image"
		if !vision {
			att.Kind = "image, not shown: this model cannot see images"
			return attachedFile{att: att, part: fmt.Sprintf("[file %s: image %s, %s: not shown, this model cannot see images]", ref.written, mime, termtext.Bytes(len(data)))}, nil
		}
		return attachedFile{att: att, image: data, part: fmt.Sprintf("[file %s: image %s, %s, attached]", ref.written, mime, termtext.Bytes(len(data)))}, nil
	case !utf8.Valid(data) || strings.ContainsRune(string(data), 0):
		return attachedFile{}, fmt.Errorf("%w: @%s is a binary file (%s): only text files and images can be attached; the prompt was not sent", ErrAttachment, ref.written, mime)
	case len(data) > MaxAttachTextBytes:
		return attachedFile{}, fmt.Errorf("%w: @%s is %s, more than the %s a text file may have to be attached: attach a part of it; the prompt was not sent",
			ErrAttachment, ref.written, termtext.Bytes(len(data)), kib(MaxAttachTextBytes))
	}
	att.MIMEType, att.Kind = "text/plain", "text"
	return attachedFile{att: att, part: fileBlock(ref.written, string(data))}, nil
}

// fileBlock is a text file in a message: a header naming it, then its
// text in a fence longer than any run of backticks inside it, so the file
// cannot end the block early.
func fileBlock(name, text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	lang := strings.TrimPrefix(filepath.Ext(name), ".")
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return fmt.Sprintf("File: %s\n%s%s\n%s%s", name, fence, lang, text, fence)
}

// kib words a cap exactly ("256 KiB"), where a rounded size would read as
// equal to a file just over it.
func kib(n int) string { return fmt.Sprintf("%d KiB", n>>10) }
