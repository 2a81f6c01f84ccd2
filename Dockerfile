# The API on Node 22 LTS, as a non-root user, with a heap limit. `docker compose up --build` runs it with
# PostgreSQL and Redis (docker-compose.yml); the variables are listed in .env.example.
# Node: package.json `engines` (^20.19.0 || ^22.13.0 || >=24.11.0, what the dependency tree admits: typeorm
# excludes 22.0-22.12 and 24.0-24.10); the `22` tag is the newest 22.x. CI runs Node 20 (docs/operations.md).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The generators (a file: devDependency) and the postinstall that links their `nest` (schematics/install.js).
COPY schematics ./schematics
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    # The V8 heap saw-tooths far above the live data (about 55 MB) without a limit; 160 MB keeps the
    # process under 300 MB resident under load. With that limit V8 also shrinks the young generation,
    # so requests in flight were scavenged and promoted over and over: a 16 MB semi-space gives it back
    # (about 10 % more requests per second on short routes, docs/performance.md#memory).
    NODE_OPTIONS="--max-old-space-size=160 --max-semi-space-size=16"
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# SIGTERM: stop accepting, finish what was received (up to 10 s), close (src/common/shutdown).
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/main.js"]
