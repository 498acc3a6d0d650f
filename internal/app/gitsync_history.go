package app

import (
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// gitRunRow is one finished operation of the Git Sync page's history.
type gitRunRow struct {
	Finished  time.Time
	Operation string
	Status    string
	// Commit is the commit imported or pushed, Short its first twelve
	// characters.
	Commit, Short string
	By            string
	Error         string
	Warnings      []string
}

// gitRunRows turns the service's history into the page's rows, newest
// first as read.
func gitRunRows(runs []service.GitSyncRunView) []gitRunRow {
	out := make([]gitRunRow, 0, len(runs))
	for _, r := range runs {
		row := gitRunRow{Finished: r.FinishedAt.UTC(), Operation: gitDirectionLabel(r.Direction),
			Status: gitStateLabel(r.State), Commit: r.Commit, Short: r.Commit, By: r.By, Error: r.Error, Warnings: r.Warnings}
		if len(row.Short) > 12 {
			row.Short = row.Short[:12]
		}
		if row.By == "" {
			row.By = "Someone no longer here"
		}
		out = append(out, row)
	}
	return out
}

// gitDirectionLabel names an operation's direction.
func gitDirectionLabel(d quire.GitDirection) string {
	if d == quire.GitExport {
		return "Export to Git"
	}
	return "Import from Git"
}

// gitStateLabel names an operation's state.
func gitStateLabel(s quire.GitState) string {
	switch s {
	case quire.GitRunning:
		return "Running"
	case quire.GitSuccess:
		return "Succeeded"
	case quire.GitFailure:
		return "Failed"
	}
	return string(s)
}
