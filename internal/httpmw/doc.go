// Package httpmw holds generic net/http middleware: request logging,
// Prometheus request metrics, panic recovery and the nosniff header. It
// knows nothing of Quire's API; the server wires it around its mux.
package httpmw
