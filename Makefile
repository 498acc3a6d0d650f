# Build, run and test Quire. `make test` is what CI runs.

GO  ?= go
BIN ?= bin/quire
# Where `make image` writes the image tarball (docker load / podman load)
IMAGE ?= bin/quire-image.tar
# Flags for `make run`, e.g. make run ARGS='--addr :9090'
ARGS ?=
# Flags for `make bench`, e.g. make bench BENCHFLAGS='-sections lists,creates'
BENCHFLAGS ?=

# The PostgreSQL tests run only when the caller names a server.
ifdef QUIRE_TEST_POSTGRES_URL
export QUIRE_TEST_POSTGRES_URL
endif

.PHONY: test test-image conformance bench bench-peers build run image

## test: vet, staticcheck, the Go tests with the race detector, the image test, then the conformance suite
test:
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	$(GO) test -race -count=1 -timeout 60m ./...
	$(MAKE) test-image
	$(MAKE) conformance

## test-image: vet, staticcheck and tests of the image builder (deploy/image, its own module): builds the image offline and runs it
test-image:
	cd deploy/image && $(GO) vet ./... && $(GO) tool staticcheck ./... && $(GO) test -race -count=1 -timeout 10m ./...

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

## image: the container image, built without a container daemon, in $(IMAGE)
image:
	cd deploy/image && $(GO) run . -repo $(CURDIR) -o $(abspath $(IMAGE))

## run: serve on the default address with data in ./quire-data
run:
	$(GO) run ./cmd/quire serve $(ARGS)
