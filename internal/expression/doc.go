// Package expression compiles the expressions the API publishes as
// Expression: the conditions of a site's sections, site spaces and header
// links (package adaptive) and the expressions of custom merge rules
// (package service). Both are written in one JavaScript-like syntax, read
// with expr-lang/expr under one set of rules: &&, ||, !, ==, != (=== and
// !== read as == and !=), <, <=, >, >=, in, string literals in single or
// double quotes, a short list of pure functions (len, lower, upper, trim,
// all, any, filter, ...), and x.length read as len(x) on an array or a
// string. Left out so that an expression cannot run long or depend on
// anything but its variables: every other function, ranges of numbers
// (a..b), and predicates nested in predicates. An expression holds at most
// MaxLength bytes of UTF-8 text and must be boolean.
//
// Each caller gives the variables an expression may name, as expr types;
// a name or field they do not declare is an error at its line and column.
// The package does no I/O and holds no state.
package expression
