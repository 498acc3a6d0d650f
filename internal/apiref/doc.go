// Package apiref reads OpenAPI specifications (Swagger 2.0, OpenAPI 3.0
// and 3.1, in YAML or JSON) with pb33f/libopenapi: it finds the files a
// specification refers to, parses and checks a set of files, reporting
// each problem with its file, line and JSON pointer, hashes the set so
// that an unchanged specification is recognized, and turns one operation
// (a path and a method) into a Card, the reference a reader or a PDF
// shows. It does no I/O: callers fetch the files.
package apiref
