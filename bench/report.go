package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// row is one line of the table: a case on an engine, summarized over the
// rounds.
type row struct {
	engine, name string
	quire, bare  summary
}

// ratio is quire's median throughput over the bare handler's.
func (r row) ratio() float64 {
	if r.bare.rps == 0 {
		return 0
	}
	return r.quire.rps / r.bare.rps
}

// summary is the median, over the rounds, of each measure of a handler.
type summary struct {
	rps      float64
	p50, p99 time.Duration
	requests int // total over the rounds
}

// summarize takes the median of each measure separately.
func summarize(runs []runStats) summary {
	var s summary
	rps := make([]float64, len(runs))
	p50 := make([]time.Duration, len(runs))
	p99 := make([]time.Duration, len(runs))
	for i, r := range runs {
		rps[i], p50[i], p99[i] = r.rps(), r.p50, r.p99
		s.requests += r.requests
	}
	s.rps, s.p50, s.p99 = median(rps), median(p50), median(p99)
	return s
}

// median returns the middle value of v (the upper one of an even count).
func median[T float64 | time.Duration](v []T) T {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// printTable writes the rows as an aligned table.
func printTable(w io.Writer, rows []row) {
	const format = "%-8s  %-36s  %8s  %8s  %8s  %8s  %8s  %8s  %6s\n"
	fmt.Fprintf(w, format, "engine", "case", "rps", "p50", "p99", "bare_rps", "bare_p50", "bare_p99", "ratio")
	for _, r := range rows {
		fmt.Fprintf(w, format, r.engine, r.name,
			fmt.Sprintf("%.0f", r.quire.rps), ms(r.quire.p50), ms(r.quire.p99),
			fmt.Sprintf("%.0f", r.bare.rps), ms(r.bare.p50), ms(r.bare.p99), fmt.Sprintf("%.3f", r.ratio()))
	}
}

// printRound writes one round's pair of runs, so noise between rounds
// shows.
func printRound(w io.Writer, engine, name string, round int, q, b runStats) {
	fmt.Fprintf(w, "  %-8s %-36s round %d: quire %7.0f rps p50 %-8s | bare %7.0f rps p50 %-8s | ratio %.3f\n",
		engine, name, round, q.rps(), ms(q.p50), b.rps(), ms(b.p50), q.rps()/max(b.rps(), 1e-9))
}

// ms formats a latency in milliseconds.
func ms(d time.Duration) string {
	f := float64(d) / float64(time.Millisecond)
	switch {
	case f < 10:
		return fmt.Sprintf("%.2fms", f)
	case f < 100:
		return fmt.Sprintf("%.1fms", f)
	}
	return fmt.Sprintf("%.0fms", f)
}
