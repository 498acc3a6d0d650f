package telemetry

import (
	"context"
	"database/sql/driver"
	"strings"

	"github.com/XSAM/otelsql"
	noopmetric "go.opentelemetry.io/otel/metric/noop"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"quire/internal/store/sqlstore"
)

// sqlOptions configures otelsql for a pool of engine e: spans from tp,
// no metrics (Prometheus has the server's), and only the spans of
// statements run for a traced request or job (sqlSpanOptions).
func sqlOptions(tp trace.TracerProvider, e sqlstore.Engine) []otelsql.Option {
	system := semconv.DBSystemNameSQLite
	if e == sqlstore.EnginePostgres {
		system = semconv.DBSystemNamePostgreSQL
	}
	return []otelsql.Option{
		otelsql.WithTracerProvider(tp),
		otelsql.WithMeterProvider(noopmetric.NewMeterProvider()),
		otelsql.WithAttributes(system),
		otelsql.WithSpanNameFormatter(sqlSpanName),
		otelsql.WithSpanOptions(sqlSpanOptions()),
	}
}

// sqlSpanOptions keeps a span for each statement, transaction and new
// connection, leaving out the per-connection session resets and result
// iteration (the statement's span covers its execution). Statements run
// outside any span, such as the job queue's polling every second, make
// none: each would be a trace of its own.
func sqlSpanOptions() otelsql.SpanOptions {
	return otelsql.SpanOptions{
		OmitConnResetSession: true,
		OmitRows:             true,
		SpanFilter: func(ctx context.Context, _ otelsql.Method, _ string, _ []driver.NamedValue) bool {
			return trace.SpanContextFromContext(ctx).IsValid()
		},
	}
}

// sqlSpanName names a statement's span by its first keyword (SELECT,
// INSERT, WITH …), or by the name the job queue's generated statements
// carry in their first line ("-- name: JobInsertFastMany :many"); a
// statement being prepared is "PREPARE" and that name. A span without a
// statement is named by what it does (sql.tx.commit).
func sqlSpanName(_ context.Context, method otelsql.Method, query string) string {
	name := statementName(query)
	switch {
	case name == "":
		return string(method)
	case method == otelsql.MethodConnPrepare:
		return "PREPARE " + name
	}
	return name
}

// statementName returns the name of a statement: its generated name, or
// its first keyword.
func statementName(query string) string {
	q := strings.TrimSpace(query)
	if rest, ok := strings.CutPrefix(q, "-- name: "); ok {
		if f := strings.Fields(rest); len(f) > 0 {
			return f[0]
		}
	}
	if i := strings.IndexAny(q, " \t\r\n("); i > 0 {
		q = q[:i]
	}
	return strings.ToUpper(q)
}
