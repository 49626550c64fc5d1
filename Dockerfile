# syntax=docker/dockerfile:1
# Sledge: one image for the server (the default command) and for scale-out replicas.
#
#   docker build -t sledge:0.1.0 .
#   docker run -p 8080:8080 -e SLEDGE_TOKEN=<secret> -v sledge-data:/data sledge:0.1.0
#   docker run -e SLEDGE_NATS_URL=nats://nats:4222 -e SLEDGE_NATS_TOKEN=<secret> sledge:0.1.0 node apps/cli/dist/main.js replica
#
# deploy/compose.yaml and deploy/k8s/ use this image; server/test/deploy-manifests.test.ts
# checks that they agree with it (port, user, commands, image name, environment names).

# ---- build: install, build every package (TypeScript, the C++ addon with libpq, the UI), prune to production
FROM node:20-bookworm AS build
# The exact pnpm of package.json's "packageManager" (pnpm would otherwise fetch that one itself).
ARG PNPM_VERSION=10.34.9
# libpq-dev: pg_config and libpq-fe.h, so worker-native also builds the native PostgreSQL VU loop (sledge_pgvu);
# libmariadb-dev: mariadb_config and mysql.h, for the native MariaDB/MySQL VU loop (sledge_myvu).
# python3, make, g++: node-gyp, for worker-native and better-sqlite3.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq-dev libmariadb-dev python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
RUN node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error("Node >= 20.19 required, found "+process.version); process.exit(1) }' \
 && npm i -g pnpm@${PNPM_VERSION}
ENV CI=true
WORKDIR /src
COPY . .
RUN --mount=type=cache,id=sledge-pnpm-store,target=/root/.local/share/pnpm/store \
    pnpm install --frozen-lockfile
RUN pnpm build
# Production dependencies only. modules-cache-max-age=0 removes the dropped packages from
# node_modules/.pnpm now (pnpm otherwise keeps them a week); built addons stay where they are.
RUN --mount=type=cache,id=sledge-pnpm-store,target=/root/.local/share/pnpm/store \
    pnpm install --frozen-lockfile --prod --config.modules-cache-max-age=0
# Only what runs: dist folders, SQL files, migrations, addons, ui/dist, node_modules (see the script).
RUN node deploy/image-files.mjs /out

# ---- runtime
FROM node:20-bookworm-slim AS runtime
# libpq5: the native PostgreSQL VU loop (worker-native/build/Release/sledge_pgvu.node) links libpq.so.5;
# libmariadb3: the native MariaDB/MySQL VU loop (sledge_myvu.node) links libmariadb.so.3.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq5 libmariadb3 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 sledge \
 && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home --shell /usr/sbin/nologin sledge \
 && mkdir -p /data \
 && chown 10001:10001 /data
WORKDIR /app
# Owned by root, read-only for the sledge user: the program never writes to its own files.
COPY --from=build /out /app
# HOST=0.0.0.0 makes the server refuse to start without SLEDGE_TOKEN (or SLEDGE_INSECURE=1).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    SLEDGE_DATA_DIR=/data \
    LOG_FORMAT=json
VOLUME ["/data"]
EXPOSE 8080
USER 10001:10001
# The server. A replica runs from the same image: node apps/cli/dist/main.js replica (it opens no port).
CMD ["node", "server/dist/main.js"]
