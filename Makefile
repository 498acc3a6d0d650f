# Build, run and test Quire. `make test` is what CI runs.

GO  ?= go
BIN ?= bin/quire
# Flags for `make run`, e.g. make run ARGS='--addr :9090'
ARGS ?=
# Flags for `make bench`, e.g. make bench BENCHFLAGS='-sections lists,creates'
BENCHFLAGS ?=

# The PostgreSQL tests run only when the caller names a server.
ifdef QUIRE_TEST_POSTGRES_URL
export QUIRE_TEST_POSTGRES_URL
endif

.PHONY: test conformance bench bench-peers build run

## test: vet, staticcheck, the Go tests with the race detector, then the conformance suite
test:
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	$(GO) test -race -count=1 -timeout 60m ./...
	$(MAKE) conformance

## conformance: the API conformance suite against a real server (Node.js 20+)
conformance:
	@test -f conformance/package.json || { \
		echo "make conformance: conformance/package.json is missing; the conformance suite cannot run" >&2; \
		exit 1; }
	cd conformance && npm ci && npm test

## bench: request throughput benchmark
bench:
	$(GO) run ./bench $(BENCHFLAGS)

## bench-peers: Quire beside PocketBase, each its own process (bench/peers.go)
bench-peers:
	$(GO) run ./bench -sections peers $(BENCHFLAGS)

## build: the quire binary, in $(BIN)
build:
	$(GO) build -o $(BIN) ./cmd/quire

## run: serve on the default address with data in ./quire-data
run:
	$(GO) run ./cmd/quire serve $(ARGS)
