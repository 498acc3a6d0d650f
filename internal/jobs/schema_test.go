package jobs_test

import (
	"database/sql"
	"testing"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"

	"quire/internal/store/sqlstore"
)

// TestRiverSchemaCurrent checks that the store's migrations bring River's
// schema to what this River release expects. When it fails after a River
// upgrade, add a goose migration taking River's schema up to the new
// version (see sqlstore.RiverMigration).
func TestRiverSchemaCurrent(t *testing.T) {
	eachEngine(t, func(t *testing.T, open func() *sqlstore.Store) {
		db, engine := open().JobDB()
		var driver riverdriver.Driver[*sql.Tx] = riverdatabasesql.New(db)
		if engine == sqlstore.EngineSQLite {
			driver = riversqlite.New(db)
		}
		m, err := rivermigrate.New(driver, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Validate(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.OK {
			t.Errorf("River's schema is behind: %v", res.Messages)
		}
	})
}
