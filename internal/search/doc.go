// Package search prepares text for the full-text index the stores keep:
// it splits page documents into sections at headings, folds text
// (accents removed, lower case) and spaces CJK characters apart so that
// either engine finds a run of them as a phrase of one-character words,
// turns a user's query into required terms, and cuts result snippets.
// Stemming and ranking are the engines' (SQLite FTS5, PostgreSQL
// full-text search).
package search
