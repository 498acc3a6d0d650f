package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	"quire/internal/quire"
	"quire/internal/search"
	"quire/internal/service"
	"quire/internal/store"
)

// Search benchmark shape.
const (
	searchCorpusPages = 100_000
	searchQueries     = 400
	searchVocabulary  = 20_000
	searchGoalP99     = 20 * time.Millisecond
	// searchBatchPages is how many generated pages go into the index at
	// once.
	searchBatchPages = 2000
)

// searchReindexSizes are the space sizes at which the re-index after a
// one-page merge is timed; the goal is the same time at both.
var searchReindexSizes = []int{200, 4000}

// benchSearch measures, on each engine, the latency of space searches
// over a generated index of searchCorpusPages pages (generated straight
// into the index: building them through the API would take long; the
// queries take the real path, service and store), p50 and p99 (goal p99
// <= searchGoalP99 on SQLite), and the time the index takes to follow a
// merge changing one page, in real spaces of two sizes (goal: flat).
func benchSearch(ctx context.Context, cfg config, names []string, w io.Writer) error {
	fmt.Fprintf(w, "\nSearch: %d queries over %d generated pages; re-index after a one-page merge, best of %d rounds:\n",
		searchQueries, searchCorpusPages, cfg.rounds)
	for _, name := range names {
		if err := searchOn(ctx, cfg, name, w); err != nil {
			return fmt.Errorf("%s: search: %w", name, err)
		}
	}
	return nil
}

// searchOn runs the search benchmark on a fresh database of one engine.
func searchOn(ctx context.Context, cfg config, name string, w io.Writer) (err error) {
	eng, err := newEngine(ctx, cfg, name)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, eng.cleanup()) }()
	st, err := store.Open(ctx, eng.cfg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	svc := service.New(st, service.WithLogger(slog.New(slog.DiscardHandler)))
	boot, err := svc.Bootstrap(ctx, service.BootstrapInput{OrgTitle: "Bench Org", Email: "owner@bench.example", Name: "Bench Owner"})
	if err != nil {
		return err
	}
	u, err := svc.Authenticate(ctx, boot.Token)
	if err != nil {
		return err
	}

	// Re-index after a one-page merge, at two sizes.
	for _, n := range searchReindexSizes {
		took, err := reindexAfterMerge(ctx, cfg, svc, u, boot.Organization, n)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%-8s  re-index after a one-page merge, %5d pages: %s\n", name, n, ms(took))
	}

	// Queries over the generated corpus.
	sp, err := svc.CreateSpace(ctx, u, boot.Organization, service.SpaceInput{Title: "Corpus"})
	if err != nil {
		return err
	}
	vocab := searchWords()
	began := time.Now()
	if err := generateIndex(ctx, st, sp.Space.ID, vocab); err != nil {
		return err
	}
	fmt.Fprintf(w, "%-8s  generated %d pages into the index in %s\n", name, searchCorpusPages, ms(time.Since(began)))
	queries := searchQueryMix(vocab)
	for _, q := range queries[:20] { // warm the caches
		if _, err := svc.SearchSpace(ctx, sp.Space.ID, q, quire.Page{}); err != nil {
			return err
		}
	}
	lat := make([]time.Duration, 0, len(queries))
	found := 0
	for _, q := range queries {
		t0 := time.Now()
		l, err := svc.SearchSpace(ctx, sp.Space.ID, q, quire.Page{})
		if err != nil {
			return fmt.Errorf("query %q: %w", q, err)
		}
		lat = append(lat, time.Since(t0))
		if len(l.Items) > 0 {
			found++
		}
	}
	p50, p99 := percentile(lat, 0.50), percentile(lat, 0.99)
	verdict := "met"
	if p99 > searchGoalP99 {
		verdict = "missed"
	}
	goal := fmt.Sprintf("(goal p99 <= %s), %s", searchGoalP99, verdict)
	if name != "sqlite" {
		goal = "(reported)"
	}
	fmt.Fprintf(w, "%-8s  space search over %d pages: p50 %s, p99 %s %s; %d of %d queries found pages\n",
		name, searchCorpusPages, ms(p50), ms(p99), goal, found, len(queries))
	return nil
}

// reindexAfterMerge builds a real space of n pages, indexes it, merges a
// change request changing one page and returns the fastest time, over
// the rounds, the index took to follow.
func reindexAfterMerge(ctx context.Context, cfg config, svc *service.Service, u *quire.User, orgID string, n int) (time.Duration, error) {
	spaceID, pageID, err := seedPages(ctx, svc, u, orgID, n)
	if err != nil {
		return 0, err
	}
	if err := svc.IndexSpace(ctx, spaceID); err != nil {
		return 0, err
	}
	var best time.Duration
	for round := 1; round <= cfg.rounds; round++ {
		cr, err := svc.CreateChangeRequest(ctx, u, spaceID, "one page")
		if err != nil {
			return 0, err
		}
		body := fmt.Sprintf("Rewritten in round %d with the word zebra.\n", round)
		if _, _, err := svc.UpdateChangeRequestContent(ctx, u, spaceID, cr.ID, []service.ContentChange{{
			Operation: service.OpUpdatePage, Page: pageID, Document: &service.DocumentInput{Markdown: &body}}}); err != nil {
			return 0, err
		}
		if _, err := svc.MergeChangeRequest(ctx, u, spaceID, cr.ID); err != nil {
			return 0, err
		}
		t0 := time.Now()
		if err := svc.IndexSpace(ctx, spaceID); err != nil {
			return 0, err
		}
		if took := time.Since(t0); round == 1 || took < best {
			best = took
		}
		l, err := svc.SearchSpace(ctx, spaceID, "zebra", quire.Page{})
		if err != nil {
			return 0, err
		}
		if len(l.Items) != 1 {
			return 0, fmt.Errorf("after the merge, the changed page is found %d times, want once", len(l.Items))
		}
	}
	return best, nil
}

// searchWords is the generated vocabulary: pronounceable words of two to
// four syllables.
func searchWords() []string {
	r := rand.New(rand.NewPCG(1, 2))
	cons, vows := "bcdfghklmnprstvz", "aeiou"
	seen := map[string]bool{}
	var out []string
	for len(out) < searchVocabulary {
		var b strings.Builder
		for range 2 + r.IntN(3) {
			b.WriteByte(cons[r.IntN(len(cons))])
			b.WriteByte(vows[r.IntN(len(vows))])
		}
		b.WriteByte(cons[r.IntN(len(cons))])
		if w := b.String(); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// generateIndex writes searchCorpusPages pages of generated text into
// the space's index: each a title of three words and two sections of
// about 60 words, words drawn with a Zipf law over the vocabulary, as in
// natural text.
func generateIndex(ctx context.Context, st quire.Store, spaceID string, vocab []string) error {
	r := rand.New(rand.NewPCG(3, 4))
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(vocab)-1))
	words := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = vocab[zipf.Uint64()]
		}
		return strings.Join(ws, " ")
	}
	from := ""
	for start := 0; start < searchCorpusPages; start += searchBatchPages {
		var secs []quire.SearchSection
		for p := start; p < min(searchCorpusPages, start+searchBatchPages); p++ {
			id := fmt.Sprintf("page%06d", p)
			title := words(3)
			path := fmt.Sprintf("part-%d/page-%d", p/100, p)
			heading := words(2)
			anchor := strings.ReplaceAll(heading, " ", "-")
			for i, s := range []quire.SearchSection{
				{Title: title, Body: words(60), PagePath: path},
				{Title: heading, Body: words(60), PagePath: path + "#" + anchor, Anchor: anchor},
			} {
				s.PageID, s.Seq, s.PageTitle = id, i, title
				s.IndexTitle, s.IndexBody = search.IndexText(s.Title), search.IndexText(s.Body)
				secs = append(secs, s)
			}
		}
		to := fmt.Sprintf("generated-%d", start)
		if err := st.ReplaceSearchPages(ctx, spaceID, from, to, false, nil, secs); err != nil {
			return err
		}
		from = to
	}
	return nil
}

// searchQueryMix is the queries timed: a third single words, a third two
// words, a third a word and the prefix of another (as typed), the words
// drawn from the middle of the vocabulary's frequency ranks.
func searchQueryMix(vocab []string) []string {
	r := rand.New(rand.NewPCG(5, 6))
	word := func() string { return vocab[20+r.IntN(2000)] }
	out := make([]string, 0, searchQueries)
	for i := range searchQueries {
		switch i % 3 {
		case 0:
			out = append(out, word())
		case 1:
			out = append(out, word()+" "+word())
		default:
			w := word()
			out = append(out, word()+" "+w[:min(len(w), 4)])
		}
	}
	return out
}
