// Package importer turns an imported source (a website, one Markdown or
// HTML file, a zip of them) into the file set of a GitBook-format
// repository: Markdown pages, a folder's page as folder/README.md, the
// first page as README.md, files under .gitbook/assets/, links between
// imported pages rewritten to relative .md paths and image links to
// relative .gitbook/assets/ paths, and, when the order matters, a
// SUMMARY.md.
//
// Everything is fetched through internal/fetch, and every import is
// bounded: a page cap, a cap on the bytes fetched or unpacked in total, and
// for zips a cap on entries and on compression ratio. Bad input (an
// unreachable URL, an answer other than 200, a broken or hostile zip, a
// source that is not supported) is a quire.Invalid error naming the field.
package importer
