// Package jobs runs the server's background work beside the HTTP server,
// stopped with it: the Sweeper on a schedule, and the Queue of durable
// jobs that requests hand off (stored in the database, retried on
// failure, each run once across replicas).
package jobs
