package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// rssSample is the growth of this process's resident memory over one
// operation: VmRSS before it and its peak while it ran.
type rssSample struct {
	base, peak int64
}

// growth is the peak less the base, in bytes.
func (s rssSample) growth() int64 { return s.peak - s.base }

// String reads as the growth in MB with its base and peak.
func (s rssSample) String() string {
	return fmt.Sprintf("%.0f MB (from %.0f MB to a peak of %.0f MB)",
		float64(s.growth())/(1<<20), float64(s.base)/(1<<20), float64(s.peak)/(1<<20))
}

// sampleRSS runs op after a collection, sampling VmRSS every 20 ms while
// it runs.
func sampleRSS(op func() error) (rssSample, error) {
	runtime.GC()
	debug.FreeOSMemory()
	base := vmRSS()
	var peak atomic.Int64
	peak.Store(base)
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if r := vmRSS(); r > peak.Load() {
					peak.Store(r)
				}
			}
		}
	}()
	err := op()
	close(done)
	<-sampled
	return rssSample{base: base, peak: max(peak.Load(), vmRSS())}, err
}

// treeDiff is how two commits' trees differ, path by path.
type treeDiff struct {
	missing, extra, changed []string
}

// count is the number of paths that differ.
func (d treeDiff) count() int { return len(d.missing) + len(d.extra) + len(d.changed) }

// gitTree lists the files of a bare repository's main branch: path to
// blob id, so two files hold the same bytes exactly when their ids match.
func gitTree(ctx context.Context, gitBin, repo string) (map[string]string, error) {
	out, err := exec.CommandContext(ctx, gitBin, "--git-dir="+repo, "ls-tree", "-r", "-z", "refs/heads/main").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-tree in %s: %w", repo, err)
	}
	files := map[string]string{}
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		// <mode> SP <type> SP <object> TAB <path>
		meta, path, ok := strings.Cut(rec, "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 3 {
			return nil, fmt.Errorf("git ls-tree in %s: unexpected line %q", repo, rec)
		}
		files[path] = fields[2]
	}
	return files, nil
}

// compareTrees compares the main branches of two bare repositories file
// by file.
func compareTrees(ctx context.Context, gitBin, want, got string) (treeDiff, error) {
	a, err := gitTree(ctx, gitBin, want)
	if err != nil {
		return treeDiff{}, err
	}
	b, err := gitTree(ctx, gitBin, got)
	if err != nil {
		return treeDiff{}, err
	}
	var d treeDiff
	for p, oid := range a {
		switch other, ok := b[p]; {
		case !ok:
			d.missing = append(d.missing, p)
		case other != oid:
			d.changed = append(d.changed, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			d.extra = append(d.extra, p)
		}
	}
	slices.Sort(d.missing)
	slices.Sort(d.extra)
	slices.Sort(d.changed)
	return d, nil
}

// printTreeDiff writes the first differing paths of d and, for the first
// changed files, the first lines that differ.
func printTreeDiff(ctx context.Context, w io.Writer, gitBin, want, got string, d treeDiff) {
	const shown = 5
	for _, l := range []struct {
		what  string
		paths []string
	}{{"missing", d.missing}, {"extra", d.extra}, {"changed", d.changed}} {
		if len(l.paths) == 0 {
			continue
		}
		fmt.Fprintf(w, "          %d %s: %s", len(l.paths), l.what, strings.Join(l.paths[:min(shown, len(l.paths))], ", "))
		if len(l.paths) > shown {
			fmt.Fprint(w, ", ...")
		}
		fmt.Fprintln(w)
	}
	for _, p := range d.extra[:min(2, len(d.extra))] {
		if b, err := gitShow(ctx, gitBin, got, p); err == nil && len(b) < 2000 {
			fmt.Fprintf(w, "          %s (extra):\n%s", p, indent(string(b), "            + "))
		}
	}
	for _, p := range d.changed[:min(3, len(d.changed))] {
		a, errA := gitShow(ctx, gitBin, want, p)
		b, errB := gitShow(ctx, gitBin, got, p)
		if errA != nil || errB != nil {
			fmt.Fprintf(w, "          %s: %v %v\n", p, errA, errB)
			continue
		}
		fmt.Fprintf(w, "          %s (%d bytes, then %d):\n%s", p, len(a), len(b), shortDiff(a, b))
	}
}

// gitShow reads one file of a bare repository's main branch.
func gitShow(ctx context.Context, gitBin, repo, path string) ([]byte, error) {
	return exec.CommandContext(ctx, gitBin, "--git-dir="+repo, "cat-file", "blob", "refs/heads/main:"+path).Output()
}

// shortDiff shows the lines of a and b from the first that differs, a few
// of each, or the first differing byte offset for binary content.
func shortDiff(a, b []byte) string {
	if bytes.IndexByte(a, 0) >= 0 || bytes.IndexByte(b, 0) >= 0 {
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		return fmt.Sprintf("            binary, first difference at byte %d\n", i)
	}
	al := strings.SplitAfter(string(a), "\n")
	bl := strings.SplitAfter(string(b), "\n")
	i := 0
	for i < len(al) && i < len(bl) && al[i] == bl[i] {
		i++
	}
	var s strings.Builder
	fmt.Fprintf(&s, "            from line %d:\n", i+1)
	for _, l := range al[i:min(i+4, len(al))] {
		fmt.Fprintf(&s, "            - %q\n", l)
	}
	for _, l := range bl[i:min(i+4, len(bl))] {
		fmt.Fprintf(&s, "            + %q\n", l)
	}
	return s.String()
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n") {
		b.WriteString(prefix + strings.TrimSuffix(l, "\n") + "\n")
	}
	return b.String()
}
