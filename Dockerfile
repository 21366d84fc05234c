# Pinsight runtime image. No base image is pulled: the binary is static
# (CGO_ENABLED=0) and carries its own CA roots (x509roots/fallback).
#
#   CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o dist/pinsight ./cmd/pinsight
#   mkdir -p dist/data    # becomes /data, owned by the image's user
#   docker build -t pinsight:local -f Dockerfile dist
#   docker run --rm -p 8080:8080 -v pinsight-data:/data pinsight:local
#
# The binary embeds the official dataset (release 2025-10-03, GODL-India; see
# NOTICE), so the image serves the postal endpoints with nothing mounted. To
# serve a newer release, mount its folder and pass --data-dir (or
# PINSIGHT_DATA_DIR).
# Accounts and reports live in the SQLite file /data/pinsight.db (with its
# -wal and -shm siblings): keep /data on a volume. Set PINSIGHT_DATABASE_URL
# to postgres://... to use PostgreSQL instead.
FROM scratch
COPY pinsight /pinsight
COPY --chown=65532:65532 data /data
WORKDIR /data
VOLUME /data
ENV PINSIGHT_DATABASE_URL=sqlite:/data/pinsight.db
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["/pinsight"]
CMD ["serve", "--addr", ":8080"]
