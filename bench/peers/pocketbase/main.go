// Command pocketbase is PocketBase, unchanged, built at the version the
// peer benchmark (bench/peers.go) measures Quire against. It lives in a
// module of its own so that Quire's go.mod never depends on PocketBase.
package main

import (
	"log"

	"github.com/pocketbase/pocketbase"
)

// main starts PocketBase with its own command line (serve, superuser, ...).
func main() {
	if err := pocketbase.New().Start(); err != nil {
		log.Fatal(err)
	}
}
