# syntax=docker/dockerfile:1
# Build: compile TypeScript and the browser console (web/ → web/dist) with the full dependency set.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY web ./web
# The console's glossary page bundles it.
COPY docs/glossary.md ./docs/glossary.md
RUN npm run build && npm run build:console

# Production dependencies only, installed apart so that no build tool reaches the final image.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# `prepare` runs the console build script, which says there is nothing to build here.
COPY scripts ./scripts
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# Runtime: compiled code, production dependencies, migrations; runs as the unprivileged `node` user.
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    SVC_DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY package.json ./
COPY migrations ./migrations
COPY demo ./demo
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "bin/healthcheck.js"]
ENTRYPOINT ["node", "bin/svc.js"]
CMD ["serve"]
