# Build base for docker/Dockerfile's build stage where Docker Hub cannot be reached
# (scripts/images.sh builds it): Debian, Node.js 24, pnpm, and the host's CA bundle so that
# pnpm can reach the npm registry through a TLS-inspecting proxy.
# Context: `node` (binary), `pnpm/` (the pnpm package), `ca-certificates.crt`.
ARG DEBIAN_IMAGE=parley-local/debian:bookworm
FROM ${DEBIAN_IMAGE}
COPY node /usr/local/bin/node
COPY pnpm /usr/local/lib/node_modules/pnpm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
RUN ln -s /usr/local/lib/node_modules/pnpm/pnpm /usr/local/bin/pnpm && node --version && pnpm --version
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt
