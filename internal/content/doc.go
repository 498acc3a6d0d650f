// Package content is Quire's versioned content engine. A revision's pages
// and files are persistent maps (hash-array-mapped tries) whose nodes, like
// the pages, documents and files themselves, are immutable objects
// addressed by the SHA-256 of their bytes. An edit writes the changed
// objects and the trie nodes above them, nothing else; comparing two
// revisions skips every subtree whose hash they share.
package content
