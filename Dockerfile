# netgraph gateway image. Multi-stage: the build stage compiles TypeScript with the dev
# dependencies; the runtime stage holds production dependencies and the files the running
# gateway reads (see the COPY lines). Build: docker build -t netgraph .
# Node 20 as in package.json "engines"; Debian (glibc) so esbuild's prebuilt binary matches.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY schema ./schema
RUN npm run build

FROM node:20-bookworm-slim AS runtime
# No upstream here on purpose: on 0.0.0.0 the gateway refuses to start until it is told what to
# serve, `-e UPSTREAM_BASE_URL=https://…` (the platform) or `-e SANDBOX=on` (the embedded demo
# sandbox, demo only: it hands its admin token to every browser).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only: they include esbuild (the /map page is bundled at run time) and
# graphiql/react (the IDE's assets are read from their packages).
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# Compiled gateway (dist/src/main.js); the project root is found as the directory holding
# package.json and schema/ (src/server/project-root.ts).
COPY --from=build /app/dist ./dist
# The SDL, read at start-up.
COPY schema ./schema
# The operations offered as MCP tools at /mcp (src/doors/mcp), read at start-up.
COPY operations/mcp ./operations/mcp
# The network map's browser code, bundled by esbuild on the first GET /map, and the one query
# document it imports. Nothing else of bench/ (its code is built apart, by `npm run bench`).
COPY web/map ./web/map
# A fixed non-root user (the node image's `node`, uid 1000): the gateway writes nothing to disk.
USER node
EXPOSE 4000
# Liveness as the orchestrator sees it (GET /healthz); no curl in the slim image, Node's fetch does.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself as PID 1 (not npm): SIGTERM reaches the gateway, which drains (src/main.ts).
CMD ["node", "dist/src/main.js"]
