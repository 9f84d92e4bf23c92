# PostgreSQL 18 where Docker Hub cannot be reached (scripts/images.sh builds it; the chart's and
# compose's default elsewhere is the official postgres:18). It behaves as the official image
# does where Parley relies on it: POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB, scripts in
# /docker-entrypoint-initdb.d on the first start, data in /var/lib/postgresql/18/docker, runs as
# uid 999 (started as root it drops to it), pg_isready on PATH.
# PostgreSQL 18 comes from Debian unstable (bookworm has 15); its newer OpenSSL ships a file
# bookworm's libssl3 also holds (legacy.so), hence --force-overwrite.
ARG DEBIAN_IMAGE=parley-local/debian:bookworm
FROM ${DEBIAN_IMAGE}
RUN set -eu; \
    echo 'deb http://deb.debian.org/debian sid main' > /etc/apt/sources.list.d/sid.list; \
    printf 'Package: *\nPin: release n=sid\nPin-Priority: 100\n' > /etc/apt/preferences.d/sid; \
    groupadd --system --gid 999 postgres; \
    useradd --system --uid 999 --gid 999 --home-dir /var/lib/postgresql --shell /bin/bash postgres; \
    apt-get -o Acquire::Check-Valid-Until=false update -qq; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Dpkg::Options::=--force-overwrite --no-install-recommends -t sid postgresql-18 >/dev/null; \
    apt-get clean; rm -rf /var/lib/apt/lists/* /usr/share/doc /usr/share/man; \
    mkdir -p /var/lib/postgresql /var/run/postgresql /docker-entrypoint-initdb.d; \
    chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql; chmod 3777 /var/run/postgresql
ENV PATH=/usr/lib/postgresql/18/bin:$PATH \
    PGDATA=/var/lib/postgresql/18/docker
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
