package cli

import (
	"context"
	"errors"
	"io"
)

// Env is what a command uses of its process besides its arguments.
type Env struct {
	// Getenv reads an environment variable; os.Getenv in production.
	Getenv func(string) string
	// Stdout receives results, Stderr logs and errors.
	Stdout, Stderr io.Writer
	// Listening, when set, is called by serve with the address it bound,
	// once it accepts connections.
	Listening func(addr string)
}

// Main runs the command line args (without the program name) and returns
// the process exit code. ctx ends the serve command gracefully when it is
// cancelled.
func Main(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	return Run(ctx, args, Env{Getenv: getenv, Stdout: stdout, Stderr: stderr})
}

// Run is Main with the whole Env.
func Run(ctx context.Context, args []string, env Env) int {
	return report(dispatch(ctx, args, env), env.Stdout, env.Stderr)
}

// dispatch runs the command args names.
func dispatch(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		return usageError{err: errors.New("no command given"), usage: printMainUsage}
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return runServe(ctx, rest, env)
	case "migrate":
		return runMigrate(ctx, rest, env)
	case "admin":
		return runAdmin(ctx, rest, env)
	case "export":
		return runExport(ctx, rest, env)
	case "import":
		return runImport(ctx, rest, env)
	case "backup":
		return runBackup(ctx, rest, env)
	case "restore":
		return runRestore(ctx, rest, env)
	case "version":
		return runVersion(rest, env.Stdout)
	case "healthcheck":
		return runHealthcheck(ctx, rest, env)
	case "help", "-h", "-help", "--help":
		return runHelp(ctx, rest, env)
	case sandboxCommand:
		return runScriptSandbox(ctx, rest, env)
	}
	return usagef("unknown command %q; run 'quire help'", cmd)
}
