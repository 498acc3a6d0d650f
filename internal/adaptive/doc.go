// Package adaptive holds the adaptive content of a site: the schema of the
// claims a visitor brings (the site's adaptive schema, a draft-07 JSON
// Schema in the restricted shape the API publishes), the conditions that
// sections, site spaces and header links carry, and their evaluation
// against one visitor's claims.
//
// A schema is parsed once with ParseSchema. Its claims are reachable in
// conditions as visitor.claims.<name>, and the claims the visitor sets
// without a signature (the "unsigned" object of the schema) as
// visitor.claims.unsigned.<name>. Conditions are expressions of package
// expression (the syntax custom merge rules use too); a claim can be looked
// up only by its name. Schema.CheckCondition tells
// whether a condition may be saved; Conditions compiles and caches them for
// evaluation against a visitor's claims.
//
// The package does no I/O and holds no state of its own beyond the caches
// its callers create.
package adaptive
