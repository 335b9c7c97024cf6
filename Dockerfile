# Signpost server image: `docker build -t signpost .` at the repository root.
# docs/self-hosting.md ("Container") says how to run it; compose.yaml runs PostgreSQL and two
# replicas behind Caddy.

# --- build: every workspace's dependencies, the dashboard and the server built to JavaScript ---
FROM node:24-slim AS build
WORKDIR /app
COPY . .
# `npm install`, not `npm ci`: the lock file is written on Linux x64 against a registry mirror
# that lacks other platforms' optional packages (Biome's, esbuild's), and `npm ci` refuses a lock
# without them; `npm install` keeps every locked version and adds the platform's own.
RUN npm install --no-audit --no-fund \
 && npm run build -w @signpost/dashboard \
 && npm run build -w @signpost/server \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# --- runtime: the built server, its production dependencies and the dashboard's static files ---
FROM node:24-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages/server/package.json ./packages/server/package.json
COPY --from=build /app/packages/server/bin ./packages/server/bin
COPY --from=build /app/packages/server/dist ./packages/server/dist
COPY --from=build /app/packages/dashboard/dist ./packages/dashboard/dist
# jemalloc: the server's bin starts on it where it is installed, and it gives back the memory a
# load grew once the server rests (glibc's malloc keeps it; packages/bench README, "Memory").
# The node image's unprivileged user (uid 1000) owns the data directory and nothing else.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libjemalloc2 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# /readyz answers 200 once the database answers; node:24-slim has no curl, so Node asks.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Migrations run at start (safe with several replicas starting together); SIGTERM drains requests.
CMD ["packages/server/bin/signpost-server.js"]
