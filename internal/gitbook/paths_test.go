package gitbook

import "testing"

func TestTargetPath(t *testing.T) {
	cases := []struct {
		page, target, want string
		ok                 bool
	}{
		{"guide/install.md", "other-page.md", "guide/other-page.md", true},
		{"guide/install.md", "../dir/page.md#usage", "dir/page.md", true},
		{"guide/README.md", "README.md", "guide/README.md", true},
		{"README.md", "guide/my%20page.md?x=1", "guide/my page.md", true},
		{"guide/install.md", "/top.md", "top.md", true},
		{"install.md", "../outside.md", "", false},
		{"install.md", "https://x.io/a.md", "", false},
		{"install.md", "#anchor", "", false},
	}
	for _, tc := range cases {
		got, ok := TargetPath(tc.page, tc.target)
		if got != tc.want || ok != tc.ok {
			t.Errorf("TargetPath(%q, %q) = %q, %v; want %q, %v", tc.page, tc.target, got, ok, tc.want, tc.ok)
		}
	}
}
