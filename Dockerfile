# Quire's container image: the static quire binary on Debian slim, with
# the fonts PDF exports are set in and the CA certificates outbound HTTPS
# (Git remotes, OpenAPI URLs, SMTP, OpenID Connect) checks against.
#
#   docker build -t quire .
#
# deploy/image builds the same image without a container daemon
# (`make image`): it reads this file's final stage for the image's
# configuration (ENV, USER, WORKDIR, EXPOSE, VOLUME, HEALTHCHECK,
# ENTRYPOINT, CMD), so keep those instructions in the forms it reads:
# JSON arrays for commands, key=value for ENV, a numeric USER.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# SQLite is modernc.org/sqlite, pure Go: the binary needs no C library.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/quire ./cmd/quire

FROM debian:bookworm-slim
# internal/pdf looks for DejaVu (Latin), Droid Sans Fallback (Chinese,
# Japanese) and Nanum Gothic (Korean) where these packages put them.
RUN apt-get update \
	&& DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		ca-certificates fonts-dejavu-core fonts-droid-fallback fonts-nanum \
	&& rm -rf /var/lib/apt/lists/* \
	&& groupadd --system --gid 10001 quire \
	&& useradd --system --uid 10001 --gid 10001 --home-dir /data --shell /usr/sbin/nologin quire \
	&& install -d -o 10001 -g 10001 -m 0700 /data
COPY --from=build /out/quire /usr/local/bin/quire

ENV QUIRE_DATA=/data QUIRE_ADDR=0.0.0.0:8080
USER 10001:10001
WORKDIR /data
EXPOSE 8080/tcp
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["/usr/local/bin/quire", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/quire"]
CMD ["serve"]
