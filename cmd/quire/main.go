// Command quire runs the Quire API server and its administration commands.
// Run "quire help" for the list.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"quire/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first signal starts a graceful shutdown, a second one
		// kills the process at once.
		<-ctx.Done()
		stop()
	}()
	code := cli.Main(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
