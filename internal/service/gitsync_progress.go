package service

import (
	"context"
	"time"

	"quire/internal/gitremote"
	"quire/internal/quire"
)

// gitProgressInterval is the least time between two writes of a running
// operation's progress, but for a change of phase.
const gitProgressInterval = time.Second

// gitProgress records how far a running import has come on its space's
// Git Sync record, at most every gitProgressInterval, so that every
// replica can tell.
type gitProgress struct {
	g       *GitSync
	space   string
	applied time.Time
	now     quire.GitProgress
	written time.Time
	phase   string
}

// fetched takes the progress of the fetch.
func (p *gitProgress) fetched(ctx context.Context, f gitremote.Progress) {
	if p == nil {
		return
	}
	p.now.Phase, p.now.Objects, p.now.ObjectsTotal, p.now.Bytes = string(f.Phase), f.Objects, f.ObjectsTotal, f.Bytes
	p.write(ctx, false)
}

// stored counts the files stored, of total.
func (p *gitProgress) stored(ctx context.Context, files, total int64) {
	if p == nil {
		return
	}
	p.now.Phase, p.now.Files, p.now.FilesTotal = gitPhaseStoring, files, total
	p.write(ctx, files == total)
}

// gitPhaseStoring is the phase of an import writing into the space.
const gitPhaseStoring = "storing"

// write records the progress when the phase changed, when forced, or
// when the last write is old enough. A failure is logged: progress is
// worth no failed import.
func (p *gitProgress) write(ctx context.Context, force bool) {
	now := time.Now()
	if !force && p.now.Phase == p.phase && now.Sub(p.written) < gitProgressInterval {
		return
	}
	p.written, p.phase = now, p.now.Phase
	if err := p.g.s.store.SetGitProgress(ctx, p.space, p.applied, p.now, p.g.s.Now()); err != nil && ctx.Err() == nil {
		p.g.log.WarnContext(ctx, "git sync: recording progress failed", "space", p.space, "err", err)
	}
}
