# Atelier's container image. Build:    docker build -t atelier .   (or: podman build --format docker)
# Behind a TLS-intercepting proxy, lend the build your CA bundle as a secret (kept in no layer):
#   docker build --secret id=ca-certificates,src=/etc/ssl/certs/ca-certificates.crt -t atelier .
# Run:      docker run -p 3000:3000 -v atelier-data:/data atelier
# docs/operations.md's "Deployment" section has the rest (PostgreSQL with compose.yaml, S3).

# ---- build: every dependency, the web bundle and the server bundle ----
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The CA secret, when given, is trusted besides Node's own certificates (NODE_EXTRA_CA_CERTS) for
# this one command; without it the mount is empty and npm trusts Node's certificates alone.
RUN --mount=type=secret,id=ca-certificates,required=false \
    --mount=type=cache,target=/root/.npm \
    if [ -s /run/secrets/ca-certificates ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca-certificates; fi \
    && npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- production dependencies, with package-lock.json's versions ----
FROM node:20-bookworm-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
# Not `npm ci --omit=dev`: npm keeps in a production install every development package that a
# production one names as an optional peer (better-auth names react, react-dom and vitest) and much
# of what those depend on (vite, Radix, Playwright: about 28 MB). Without the devDependencies they
# are no one's, and npm 11
# (not npm 10, which Node 20 bundles) then leaves them out, installing the rest at the versions
# package-lock.json holds.
RUN --mount=type=secret,id=ca-certificates,required=false \
    --mount=type=cache,target=/root/.npm \
    if [ -s /run/secrets/ca-certificates ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca-certificates; fi \
    && npm pkg delete devDependencies \
    && npx --yes npm@11.19.1 install --omit=dev --no-audit --no-fund

# ---- production: Node, the built server and web app, the production dependencies ----
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=3000 \
    MALLOC_ARENA_MAX=2
# MALLOC_ARENA_MAX: as `npm start` does, two malloc arenas (docs/decisions/010-embedded-memory.md).
WORKDIR /app
COPY package.json ./package.json
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The data folder (embedded database, images, generated secret) belongs to the user the server
# runs as; a new volume mounted there takes this folder's owner.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Node, as slim images have no curl. 200 only when the database answers and storage is writable.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/ready`, { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself, not npm: SIGTERM from `docker stop` reaches the server, which drains and closes.
CMD ["node", "--enable-source-maps", "dist/server/main.js"]
