package search

import (
	"fmt"
	"strings"
	"testing"

	"quire/internal/quire"
)

// marked writes fragments with their marks as [brackets].
func marked(fs []Fragment) string {
	var b strings.Builder
	for _, f := range fs {
		if f.Mark {
			b.WriteString("[" + f.Text + "]")
		} else {
			b.WriteString(f.Text)
		}
	}
	return b.String()
}

func TestHighlight(t *testing.T) {
	cases := []struct{ query, text, want string }{
		// Every word a prefix, case and accents folded.
		{"git sync", "GitHub & GitLab Sync", "[GitHub] & [GitLab] [Sync]"},
		{"git sync", "Use Git Sync; legit syncing.", "Use [Git] [Sync]; legit [syncing]."},
		{"elephant", "Les Éléphants dorment", "Les [Éléphants] dorment"},
		{"ÉLÉPHANT", "un e\u0301le\u0301phant", "un [e\u0301le\u0301phant]"},
		// Plural and verb endings come off the query's words.
		{"daemons", "A daemon runs", "A [daemon] runs"},
		{"syncing now", "synced now", "[synced] [now]"},
		{"policies", "one policy", "one [policy]"},
		// Short words other than the last are whole words.
		{"to do", "to today do", "[to] today [do]"},
		// A run of CJK characters matches as a phrase.
		{"安装", "请先安装。安全", "请先[安装]。安全"},
		// Nothing matching: one plain fragment.
		{"zebra", "<b>no match</b>", "<b>no match</b>"},
	}
	for _, c := range cases {
		if got := marked(NewMatcher(ParseQuery(c.query)).Highlight(c.text)); got != c.want {
			t.Errorf("Highlight(%q, %q) = %q, want %q", c.query, c.text, got, c.want)
		}
	}
}

func TestMatchesAll(t *testing.T) {
	m := NewMatcher(ParseQuery("git sync"))
	for s, want := range map[string]bool{
		"GitHub & GitLab Sync": true,
		"Monorepos":            false,
		"Sync only":            false,
		"legit sync":           false,
		"":                     false,
	} {
		if got := m.MatchesAll(s); got != want {
			t.Errorf("MatchesAll(%q) = %v", s, got)
		}
	}
	if NewMatcher(nil).MatchesAll("anything") {
		t.Error("an empty query matches")
	}
}

func TestSnippetMarks(t *testing.T) {
	body := strings.Repeat("filler words here ", 30) + "then Git Sync runs " + strings.Repeat("more text follows ", 30)
	got := NewMatcher(ParseQuery("git sync")).Snippet(body)
	s := marked(got)
	if !strings.Contains(s, "then [Git] [Sync] runs") || !strings.HasPrefix(s, "…") || !strings.HasSuffix(s, "…") {
		t.Errorf("snippet %q", s)
	}
	if n := len([]rune(Plain(got))); n > snippetRunes+2 {
		t.Errorf("snippet of %d runes", n)
	}
	// The text is the body's, unescaped: escaping is for whoever shows it.
	got = NewMatcher(ParseQuery("script")).Snippet(`<script>alert("x")</script>`)
	if s := marked(got); s != `<[script]>alert("x")</[script]>` {
		t.Errorf("snippet %q", s)
	}
}

// hit is an indexed section found by a search.
func hit(page string, seq int, pageTitle, title, body string) *quire.SearchHit {
	return &quire.SearchHit{SpaceID: "s", SearchSection: quire.SearchSection{PageID: page, Seq: seq, PageTitle: pageTitle, Title: title, Body: body}}
}

// order lists the page ids and section seqs of hits in order.
func order(hits []*quire.SearchHit) string {
	var out []string
	for _, h := range hits {
		out = append(out, fmt.Sprintf("%s/%d", h.PageID, h.Seq))
	}
	return strings.Join(out, " ")
}

func TestOrder(t *testing.T) {
	// In the order an engine might give them: body matches weigh more
	// there when they repeat the words.
	hits := []*quire.SearchHit{
		hit("monorepos", 0, "Monorepos", "Monorepos", "Git Sync with git sync, git sync and Git Sync."),
		hit("spread", 0, "Sync settings", "Sync settings", "What git keeps."),
		hit("heading", 2, "Setup", "Git Sync", "Connect it."),
		hit("github", 1, "GitHub & GitLab Sync", "Permissions", "Git Sync needs write access."),
		hit("github", 0, "GitHub & GitLab Sync", "GitHub & GitLab Sync", "Connect a repository."),
		hit("body", 0, "Editing", "Editing", "Git Sync runs after a merge."),
		hit("heading", 1, "Setup", "Before", "Git Sync first."),
	}
	want := "github/0 github/1 heading/2 heading/1 monorepos/0 body/0 spread/0"
	if got := order(Order(hits, ParseQuery("git sync"))); got != want {
		t.Errorf("order\n got %s\nwant %s", got, want)
	}
	// Ties keep the engine's order, whatever it is.
	a := hit("a", 0, "Alpha", "Alpha", "git sync")
	b := hit("b", 0, "Beta", "Beta", "git sync")
	if got := order(Order([]*quire.SearchHit{b, a}, ParseQuery("git sync"))); got != "b/0 a/0" {
		t.Errorf("tie order %s", got)
	}
}

func TestSectionTier(t *testing.T) {
	m := NewMatcher(ParseQuery("git sync"))
	for _, c := range []struct {
		sec  quire.SearchSection
		want Tier
	}{
		{quire.SearchSection{Seq: 0, Title: "Git Sync", Body: "x"}, TierPageTitle},
		{quire.SearchSection{Seq: 3, Title: "Git Sync", Body: "x"}, TierHeading},
		{quire.SearchSection{Seq: 0, Title: "Intro", Body: "Git Sync"}, TierBody},
		{quire.SearchSection{Seq: 0, Title: "Git", Body: "Sync"}, TierPartial},
	} {
		if got := m.SectionTier(&c.sec); got != c.want {
			t.Errorf("SectionTier(%+v) = %d, want %d", c.sec, got, c.want)
		}
	}
}
