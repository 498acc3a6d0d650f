// Package jobs runs the server's background work on a schedule, beside the
// HTTP server and stopped with it.
package jobs
