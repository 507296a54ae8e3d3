// Package toolselect ranks tools by how well they fit a request, so that a
// model whose context window cannot hold every tool is offered the ones it
// is likely to need.
//
// The ranking is lexical: BM25F (Robertson and Zaragoza's field-weighted
// BM25, k1 1.2, b 0.75) over each tool's own name, its server's name, its
// description, and its arguments' names and descriptions. Names are split
// into words at underscores, dashes, dots and case changes
// (read_text_file, getFileInfo, HTTPServer), words are stemmed with the
// Snowball English stemmer, and a small table folds the words tools and
// users use for the same thing (folder and directory, remove and delete)
// into one. A request is read with a few signals besides its words: a path
// or file name means a file, a URL or domain a web page, and the name of a
// common shell program a command.
//
// People do not write as tools are described, so a request's words are
// folded (case, accents) and read against words.txt, a table of the verbs
// and nouns tools use in Spanish, German, French, Portuguese and Italian
// (with their common inflections) and of everyday phrases ("keep in
// mind", "what's in", "look up"), each meaning English words; German
// compounds split at a known part (Dateiliste). A word that no table knows
// and no tool uses may be a typo: it counts, below an exact match, as the
// tools' or the tables' words one edit away (two for words of eight
// letters or more; only a swap for four letters; never for shorter ones),
// found through letter pairs indexed with the tools. A word that the table
// does not list but that is another form of one of its words (recuerdes,
// renombrarlos, supprimerons) counts, a little below it, by the stem they
// share once the endings of verbs and nouns and attached pronouns of the
// five languages are taken off; a tool's own word is never read so.
//
// The words of a file's name or path count a quarter (notes.txt is a
// file, not a note; build/ is a folder, not a build), its extension in
// full (bug.png is an image). Of tools of several servers that do the same
// thing (fs__read_file, filesystem__read_file: the same words in their
// names) the best one counts in full and the others half, so that a short
// list offers more kinds of tools than copies. The tools that match
// nothing come last: first the other tools of the servers that matched
// (best server first), then one tool of each other server in turn.
//
// An Index is built once per tool list and answers a ranking in
// microseconds; Named finds the tools a request names outright. An
// Embedder (Ollama's /api/embed) may rank by meaning as well; Fuse merges
// its order with the lexical one.
package toolselect
