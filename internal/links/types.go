package links

// Status tells whether the target of a reference is there.
type Status string

// Statuses of a reference.
const (
	// StatusOK is a reference with no problem found.
	StatusOK Status = "ok"
	// StatusBroken is a reference whose target is not in the revision.
	StatusBroken Status = "broken"
	// StatusInApp is a URL pointing into the server's own app or API.
	StatusInApp Status = "in-app"
)

// Relation tells how content relates to the target of a reference.
type Relation string

// Relations of a reference.
const (
	// RelationReference is a soft reference: a link, an image, a file.
	RelationReference Relation = "reference"
	// RelationDependsOn is content that depends on its target to show:
	// reusable content and OpenAPI blocks.
	RelationDependsOn Relation = "dependsOn"
)

// BrokenContext tells where a broken reference of a change request is
// broken.
type BrokenContext string

// Contexts of a broken reference of a change request.
const (
	// BrokenInChangeRequest is broken by the change request: broken in its
	// revision, and not broken in the space's.
	BrokenInChangeRequest BrokenContext = "change-request"
	// BrokenInSpace is broken in the space's revision too.
	BrokenInSpace BrokenContext = "space"
)

// Stats count the references of a list before its status filter.
type Stats struct {
	// Total counts the targets.
	Total int
	// Broken counts the broken targets.
	Broken int
	// BrokenByChangeRequest counts the targets a change request broke;
	// nil outside change requests.
	BrokenByChangeRequest *int
}
