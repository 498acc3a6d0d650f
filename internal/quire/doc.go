// Package quire holds the domain of the Quire server: the entities it
// manages (organizations, members, teams, collections, spaces), the roles
// and permission rules that govern them, the errors every layer speaks, and
// the store interfaces that adapters implement.
//
// The package depends on the standard library only. Adapters (SQL stores,
// the HTTP API) depend on it; it depends on none of them.
package quire
