package service

import (
	"context"
	"fmt"
	"strings"
	"time"

	"quire/internal/gitbook"
	"quire/internal/gitremote"
	"quire/internal/quire"
)

// importRepo fetches the job's ref and commits the repository's content as
// one revision of the space, recording the commit on it; the space moves
// to it unless the job is standalone, and then keeps the repository's
// redirects as the space's. It returns the commit imported and
// what the import could not carry: files left out of the summary, broken
// links and the like.
func (g *GitSync) importRepo(ctx context.Context, u *quire.User, job GitJob, rawURL string) (string, []string, error) {
	prog := &gitProgress{g: g, space: job.Space, applied: time.UnixMilli(job.Timestamp).UTC()}
	co, err := g.remote.Open(ctx, rawURL, gitremote.FetchOptions{Ref: job.Ref, Dir: job.ProjectDir, Inline: gitInline,
		Progress: func(p gitremote.Progress) { prog.fetched(ctx, p) }})
	if err != nil {
		return "", nil, err
	}
	defer co.Close()
	src := &repoSource{co: co}
	sp, err := liveSpace(ctx, g.s.store, job.Space)
	if err != nil {
		return "", nil, err
	}
	cur, err := g.s.store.Revision(ctx, sp.ID, sp.Revision)
	if err != nil {
		return "", nil, err
	}
	snap := g.s.engine.Snapshot(g.s.store, cur)
	known, err := newKnownPaths(ctx, snap)
	if err != nil {
		return "", nil, err
	}
	files, err := src.gitbookFiles(ctx, known.knownFiles())
	if err != nil {
		return "", nil, err
	}
	tree, err := gitbook.Read(files, known)
	if err != nil {
		return "", nil, asInvalid("repository", err)
	}
	src.root = tree.Config.Root
	warnings := importWarnings(tree)
	for _, w := range warnings {
		g.log.WarnContext(ctx, "git import: "+w, "space", sp.ID)
	}
	ed := g.s.engine.Edit(g.s.store, &quire.Revision{SpaceID: sp.ID})
	if err := g.s.importTree(ctx, ed, snap, known, src, tree, prog); err != nil {
		return "", nil, err
	}
	commit := &quire.GitCommit{OID: co.OID, Message: co.Message, Ref: job.Ref,
		CreatedByService: co.Own, URL: commitURL(job.RepoCommitURL, co.OID)}
	redirects := importedRedirects(tree)
	for {
		if !job.Standalone && !ed.Changed(cur) {
			// The space already holds this content; the redirects may
			// have changed all the same.
			return co.OID, warnings, g.s.keepRepoSettings(ctx, sp.ID, tree, redirects)
		}
		next := ed.Revision(quire.NewID(), sp.ID, quire.RevisionEdits, u.ID, cur.ID)
		next.Git = commit
		if err := ed.Commit(ctx, g.s.store, next); err != nil {
			return "", nil, err
		}
		if job.Standalone {
			return co.OID, warnings, nil
		}
		err := advanceSpace(ctx, g.s.store, sp.ID, cur.ID, next.ID)
		if err == nil {
			g.s.announceContent(ctx, sp.ID)
			err = g.s.keepRepoSettings(ctx, sp.ID, tree, redirects)
		}
		if !quire.IsStale(err) {
			return co.OID, warnings, err
		}
		// Another write moved the space: the import replaces the content
		// anyway, on top of the revision it reached.
		if sp, err = liveSpace(ctx, g.s.store, job.Space); err != nil {
			return "", nil, err
		}
		if cur, err = g.s.store.Revision(ctx, sp.ID, sp.Revision); err != nil {
			return "", nil, err
		}
	}
}

// exportRepo writes the space's current content as a repository and
// pushes it as one commit to the job's ref; an unchanged space pushes
// nothing. It returns the commit the ref points at afterwards.
func (g *GitSync) exportRepo(ctx context.Context, job GitJob, rawURL string) (string, error) {
	sp, err := liveSpace(ctx, g.s.store, job.Space)
	if err != nil {
		return "", err
	}
	cur, err := g.s.store.Revision(ctx, sp.ID, sp.Revision)
	if err != nil {
		return "", err
	}
	tree, err := g.s.exportTree(ctx, g.s.engine.Snapshot(g.s.store, cur))
	if err != nil {
		return "", err
	}
	files, err := gitbook.Write(tree)
	if err != nil {
		return "", err
	}
	oid, _, err := g.remote.Push(ctx, rawURL, job.Ref, job.ProjectDir, gitremote.Files(files), job.CommitMessage)
	return oid, err
}

// maxGitWarnings bounds the warnings an import records.
const maxGitWarnings = 100

// importWarnings lists what an import of tree leaves out.
func importWarnings(tree *gitbook.Space) []string {
	var out []string
	for _, p := range tree.Unlisted {
		out = append(out, p+": not in the summary, not imported")
	}
	out = append(out, tree.Warnings...)
	if len(out) > maxGitWarnings {
		n := len(out) - maxGitWarnings
		out = append(out[:maxGitWarnings], fmt.Sprintf("and %d more", n))
	}
	return out
}

// commitURL is the address of a commit under a repoCommitURL prefix.
func commitURL(prefix, oid string) string {
	if prefix == "" || oid == "" {
		return ""
	}
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return prefix + oid
}

// asInvalid makes err a 400 naming field unless it is a domain error
// already.
func asInvalid(field string, err error) error {
	if quire.ErrorCode(err) != "" && quire.ErrorCode(err) != quire.EINTERNAL {
		return err
	}
	return quire.Invalid(field, "%v", err)
}
