package cli

import (
	"context"
	"fmt"
	"os"

	"quire/internal/jsruntime"
)

// sandboxCommand is the hidden command with which serve starts its own
// executable again to run one integration script in a child process
// (jsruntime.ServeSandbox). It is not listed in the help: it reads a
// binary protocol on standard input and is no use to a person.
const sandboxCommand = "script-sandbox"

// runScriptSandbox serves one sandboxed script run on standard input and
// env.Stdout.
func runScriptSandbox(ctx context.Context, args []string, env Env) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments", sandboxCommand)
	}
	return jsruntime.ServeSandbox(ctx, os.Stdin, env.Stdout)
}

// scriptSandbox is the child process serve runs integration scripts in:
// this executable, started with sandboxCommand.
func scriptSandbox() (*jsruntime.Sandbox, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this executable to run integration scripts in a child process: %w", err)
	}
	return &jsruntime.Sandbox{Path: exe, Args: []string{sandboxCommand}}, nil
}
