package telemetry

import (
	"testing"

	"github.com/XSAM/otelsql"
)

func TestSQLSpanName(t *testing.T) {
	for _, tc := range []struct {
		method otelsql.Method
		query  string
		want   string
	}{
		{otelsql.MethodStmtQuery, "SELECT id FROM spaces WHERE id = ?", "SELECT"},
		{otelsql.MethodConnExec, "\n\t\tinsert into t values (1)", "INSERT"},
		{otelsql.MethodConnQuery, "WITH(x) AS (SELECT 1) SELECT * FROM x", "WITH"},
		{otelsql.MethodConnPrepare, "UPDATE spaces SET title = ?", "PREPARE UPDATE"},
		{otelsql.MethodConnQuery, "-- name: JobInsertFastMany :many\nINSERT INTO river_job", "JobInsertFastMany"},
		{otelsql.MethodTxCommit, "", "sql.tx.commit"},
		{otelsql.MethodConnBeginTx, "  ", "sql.conn.begin_tx"},
	} {
		if got := sqlSpanName(t.Context(), tc.method, tc.query); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.method, tc.query, got, tc.want)
		}
	}
}
