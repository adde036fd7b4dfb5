# peeringd in a container: built in a Rust image, run in a slim Debian as an unprivileged
# user, with its SQLite database in the /data volume (or PostgreSQL by URL).
#
#   docker build -t peeringd .
#   docker run -p 8000:8000 -v peeringd-data:/data peeringd
#
# The first start on an empty database prints the admin token (docker logs).

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p peeringd \
    && install -m 0755 target/release/peeringd /usr/local/bin/peeringd

FROM debian:bookworm-slim
# libssl3: the PostgreSQL client library built into the binary links OpenSSL; SQLite is
# built in. Nothing else is needed at run time.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libssl3 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin peeringd \
    && mkdir /data && chown peeringd:peeringd /data
COPY --from=build /usr/local/bin/peeringd /usr/local/bin/peeringd
USER peeringd
WORKDIR /data
VOLUME /data
ENV PEERING_DATABASE_URL=sqlite:///data/peeringd.sqlite3 \
    PEERING_LISTEN=0.0.0.0:8000
EXPOSE 8000
# The image has no HTTP client; bash's /dev/tcp asks /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8000 && printf 'GET /healthz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["peeringd"]
CMD ["serve"]
