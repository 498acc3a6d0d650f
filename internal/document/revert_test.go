package document

import "testing"

func TestRevertBlock(t *testing.T) {
	then := mustFromMarkdown(t, "First.\n\nSecond.\n\n* a\n* b\n\nThird.")
	cur := mustFromMarkdown(t, "First.\n\nSecond, edited.\n\n* a\n* b\n\nThird.\n\nAdded.")
	ReuseKeys(then, cur)
	// Revert an edited block.
	if !RevertBlock(cur, then, then.Nodes[1].Key) {
		t.Fatal("edited block not reverted")
	}
	// Remove a block added since then.
	if !RevertBlock(cur, then, cur.Nodes[4].Key) {
		t.Fatal("added block not removed")
	}
	if got := mustToMarkdown(t, cur); got != mustToMarkdown(t, then) {
		t.Fatalf("after reverting:\n%s", got)
	}
	// Put back a deleted block and a deleted list item.
	deleted := mustFromMarkdown(t, "First.\n\n* a\n\nThird.")
	ReuseKeys(then, deleted)
	if !RevertBlock(deleted, then, then.Nodes[1].Key) || !RevertBlock(deleted, then, then.Nodes[2].Nodes[1].Key) {
		t.Fatal("deleted blocks not restored")
	}
	if got := mustToMarkdown(t, deleted); got != mustToMarkdown(t, then) {
		t.Fatalf("after restoring:\n%s", got)
	}
	if RevertBlock(cur, then, "no-such-key") || RevertBlock(nil, then, "x") {
		t.Fatal("unknown key reported as reverted")
	}
	if len(New().Nodes) != 0 || New().Data["schemaVersion"] != SchemaVersion {
		t.Fatal("New")
	}
}
