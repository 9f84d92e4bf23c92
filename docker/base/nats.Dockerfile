# NATS server with JetStream where Docker Hub cannot be reached (scripts/images.sh builds it;
# the chart's default elsewhere is the official nats:2.10). Context: `nats-server`, a static
# build (`go install github.com/nats-io/nats-server/v2@<version>` with CGO_ENABLED=0).
FROM scratch
COPY nats-server /nats-server
EXPOSE 4222 8222 6222
ENTRYPOINT ["/nats-server"]
CMD ["-js", "-sd", "/data", "-m", "8222"]
