# congod in a container: a static binary on a distroless base, run as a
# user without privileges. Build and run:
#
#   docker build -t congod .
#   docker run -d --name congod --restart unless-stopped \
#     -v congod-data:/data \
#     -v /etc/congod/congod.conf:/etc/congod.conf:ro \
#     congod -config /etc/congod.conf
#
# The configuration file must be readable by uid 65532 (the image's
# "nonroot" user). The database is /data/congo.db; back it up with
#   docker exec congod /congod backup /data/backup-$(date +%F).db

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# modernc.org/sqlite is pure Go: no cgo, so the binary is static.
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/congod ./cmd/congod \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/congod /congod
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
WORKDIR /data
ENV CONGO_DB=/data/congo.db
VOLUME /data
ENTRYPOINT ["/congod"]
