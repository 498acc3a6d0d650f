package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"syscall"
	"time"

	"quire/internal/document"
)

// The document benchmark times what a page or comment write does with a
// body: FromMarkdown (or Parse for a JSON document) and the JSON of the
// result. Each shape is built at about N and 2N bytes; the 2N/N ratio
// of time and of allocation shows whether the work grows linearly (2.0)
// or faster. The goal is a ratio of at most 2.2 for every shape, and no
// body of about 1 MB taking over 1 s or allocating over 200 MB. For the
// bodies the import accepts, the export back to Markdown is timed too.

// docShape is a hostile or large body: build returns about n bytes.
type docShape struct {
	name  string
	json  bool
	build func(n int) string
}

// docBenchBytes is 2N, the larger size of every shape.
const docBenchBytes = 1 << 20

// repeatTo repeats unit until the result holds about n bytes.
func repeatTo(unit string, n int) string {
	return strings.Repeat(unit, max(1, n/len(unit)))
}

// nestTo nests open/close pairs deep levels deep, around inner, and repeats
// the nest until about n bytes.
func nestTo(open, inner, close string, deep, n int) string {
	unit := strings.Repeat(open, deep) + inner + strings.Repeat(close, deep)
	return repeatTo(unit, n)
}

// jsonDoc wraps JSON nodes in a document.
func jsonDoc(nodes string) string {
	return `{"object":"document","data":{},"nodes":[` + nodes + `]}`
}

const jsonPara = `{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]}`

// jsonQuotes returns blockquotes nested deep levels around a paragraph.
func jsonQuotes(deep int) string {
	return strings.Repeat(`{"object":"block","type":"blockquote","nodes":[`, deep) + jsonPara + strings.Repeat("]}", deep)
}

// jsonNodesTo repeats a JSON node, comma-separated, to about n bytes.
func jsonNodesTo(node string, n int) string {
	count := max(1, n/(len(node)+1))
	return jsonDoc(strings.TrimSuffix(strings.Repeat(node+",", count), ","))
}

// docShapes are the shapes measured: nesting within the depth limit,
// nesting far past it (refused), and wide flat bodies.
func docShapes() []docShape {
	hint := "{% hint style=\"info\" %}\n"
	return []docShape{
		{"`- ` lists 30 deep", false, func(n int) string { return nestTo("- ", "x\n\n", "", 30, n) }},
		{"`> ` quotes 60 deep", false, func(n int) string { return nestTo("> ", "x\n\n", "", 60, n) }},
		{"hints 60 deep", false, func(n int) string { return nestTo(hint, "x\n", "{% endhint %}\n", 60, n) }},
		{"JSON quotes 60 deep", true, func(n int) string { return jsonNodesTo(jsonQuotes(60), n) }},
		{"`- ` past the limit", false, func(n int) string { return repeatTo("- ", n) + "x" }},
		{"`> ` past the limit", false, func(n int) string { return repeatTo("> ", n) + "x" }},
		{"hints past the limit", false, func(n int) string {
			k := n / (len(hint) + len("{% endhint %}\n"))
			return strings.Repeat(hint, k) + "x\n" + strings.Repeat("{% endhint %}\n", k)
		}},
		{"<details> past the limit", false, func(n int) string {
			k := n / 40
			return strings.Repeat("<details>\n<summary>s</summary>\n\n", k) + "x\n" + strings.Repeat("\n</details>\n", k)
		}},
		{"JSON past the limit", true, func(n int) string { return jsonQuotes(n / 50) }},
		{"paragraphs", false, func(n int) string { return repeatTo("Some *text* with a [link](https://x.io).\n\n", n) }},
		{"one long line", false, func(n int) string { return repeatTo("word **bold** ", n) }},
		{"list items", false, func(n int) string { return repeatTo("- item\n", n) }},
		{"sibling hints", false, func(n int) string { return repeatTo(hint+"x\n{% endhint %}\n\n", n) }},
		{"unclosed tags", false, func(n int) string { return repeatTo("{% hint %}\n", n) }},
		{"`{%` without `%}`", false, func(n int) string { return repeatTo("{% ", n) }},
		{"unclosed <details>", false, func(n int) string { return repeatTo("<details>\n", n) }},
		{"`- <div>` items", false, func(n int) string { return repeatTo("- <div>\n", n) }},
		{"`$$` lines", false, func(n int) string { return repeatTo("$$x\n", n) }},
		{"open brackets", false, func(n int) string { return repeatTo("[", n) }},
		{"emphasis runs", false, func(n int) string { return repeatTo("*a ", n) }},
		{"table rows", false, func(n int) string { return "| a | b |\n| - | - |\n" + repeatTo("| x | y |\n", n) }},
		{"link definitions", false, linkDefinitions},
		{"JSON paragraphs", true, func(n int) string { return jsonNodesTo(jsonPara, n) }},
	}
}

// linkDefinitions returns one paragraph of link reference definitions
// with distinct labels, about n bytes.
func linkDefinitions(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "[a%d]: /x\n", i)
	}
	return b.String()
}

// docMeasure is one import (and, when accepted, export) of a body.
type docMeasure struct {
	bytes    int
	elapsed  time.Duration
	cpu      time.Duration
	alloc    uint64
	export   time.Duration
	accepted bool
}

// importBody converts a body as a page write does and returns the
// document, or nil when it is refused.
func importBody(ctx context.Context, s docShape, body string) (*document.Document, error) {
	var doc *document.Document
	var err error
	if s.json {
		doc, err = document.Parse([]byte(body))
	} else {
		doc, err = document.FromMarkdown(body, document.WithContext(ctx))
	}
	if err != nil {
		return nil, err
	}
	_, err = doc.MarshalJSON()
	return doc, err
}

// cpuTime is the CPU time the process has used, user and system; on a
// shared machine it varies less than the elapsed time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measureBody times the import of body, the fastest of five runs in
// elapsed and in CPU time, and the allocation of one.
func measureBody(ctx context.Context, s docShape, body string) (docMeasure, error) {
	m := docMeasure{bytes: len(body), elapsed: time.Duration(1<<63 - 1), cpu: time.Duration(1<<63 - 1)}
	var doc *document.Document
	for i := range 5 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start, startCPU := time.Now(), cpuTime()
		d, err := importBody(ctx, s, body)
		el, cpu := time.Since(start), cpuTime()-startCPU
		runtime.ReadMemStats(&after)
		if ctx.Err() != nil {
			return m, ctx.Err()
		}
		var perr *document.ParseError
		if err != nil && !errors.Is(err, document.ErrTooDeep) && !errors.Is(err, document.ErrTooManyNodes) && !errors.As(err, &perr) {
			return m, fmt.Errorf("%s: %w", s.name, err)
		}
		m.elapsed, m.cpu = min(m.elapsed, el), min(m.cpu, cpu)
		if i == 0 {
			m.alloc = after.TotalAlloc - before.TotalAlloc
		}
		doc = d
	}
	if doc != nil {
		m.accepted = true
		start := time.Now()
		if _, err := document.ToMarkdown(doc, document.WithContext(ctx)); err != nil {
			return m, fmt.Errorf("%s: export: %w", s.name, err)
		}
		m.export = time.Since(start)
	}
	return m, nil
}

// benchDocuments measures every shape at N and 2N bytes and prints the
// table; it fails only when a conversion fails other than by refusing a
// body (nested too deeply, too many nodes, or not JSON the decoder takes).
func benchDocuments(ctx context.Context, w io.Writer) error {
	fmt.Fprintf(w, "\ndocument import: N = %d KB, 2N = %d KB; elapsed and CPU time are the fastest of 5 runs;\n"+
		"ratios are 2N/N of CPU time (c) and allocation (a); export is the elapsed time of ToMarkdown at 2N\n",
		docBenchBytes/2>>10, docBenchBytes>>10)
	const format = "%-26s  %8s  %8s  %9s  %8s  %8s  %9s  %5s  %5s  %8s  %s\n"
	fmt.Fprintf(w, format, "shape", "N time", "N cpu", "N alloc", "2N time", "2N cpu", "2N alloc", "c", "a", "export", "result")
	worst := 0.0
	slowest, fattest := time.Duration(0), uint64(0)
	for _, s := range docShapes() {
		small, err := measureBody(ctx, s, s.build(docBenchBytes/2))
		if err != nil {
			return err
		}
		large, err := measureBody(ctx, s, s.build(docBenchBytes))
		if err != nil {
			return err
		}
		rt := float64(large.cpu) / float64(max(small.cpu, 1))
		ra := float64(large.alloc) / float64(max(small.alloc, 1))
		// CPU time is counted in ticks of the scheduler; ratios of runs
		// under 20 ms are noise, shown but not counted.
		if large.cpu > 20*time.Millisecond {
			worst = max(worst, rt)
		}
		if large.alloc > 1<<20 {
			worst = max(worst, ra)
		}
		slowest, fattest = max(slowest, large.cpu), max(fattest, large.alloc)
		result, export := "refused", "-"
		if large.accepted {
			result, export = "accepted", ms(large.export)
		}
		fmt.Fprintf(w, format, s.name, ms(small.elapsed), ms(small.cpu), mb(small.alloc),
			ms(large.elapsed), ms(large.cpu), mb(large.alloc),
			fmt.Sprintf("%.2f", rt), fmt.Sprintf("%.2f", ra), export, result)
	}
	verdict := "met"
	if worst > 2.2 || slowest > time.Second || fattest > 200<<20 {
		verdict = "missed"
	}
	fmt.Fprintf(w, "\ntarget 2N/N <= 2.2, 1 MB body <= 1 s CPU and <= 200 MB: worst ratio %.2f, most CPU %s, most allocated %s, %s\n",
		worst, ms(slowest), mb(fattest), verdict)
	return nil
}

// mb formats a byte count in megabytes.
func mb(b uint64) string { return fmt.Sprintf("%.1fMB", float64(b)/(1<<20)) }
