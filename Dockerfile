# One image for every process; the compose file picks the entry point per container.
FROM node:20.19-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json .npmrc ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/kit/package.json packages/kit/
COPY packages/store/package.json packages/store/
COPY packages/search/package.json packages/search/
COPY packages/bus/package.json packages/bus/
COPY packages/runtime/package.json packages/runtime/
COPY packages/youtube/package.json packages/youtube/
COPY services/billing/package.json services/billing/
COPY services/research/package.json services/research/
COPY services/provider/package.json services/provider/
COPY services/trends/package.json services/trends/
COPY services/monitoring/package.json services/monitoring/
COPY services/agents/package.json services/agents/
COPY packages/ai/package.json packages/ai/
COPY packages/client/package.json packages/client/
COPY packages/mcp/package.json packages/mcp/
COPY packages/cli/package.json packages/cli/
COPY gateway/package.json gateway/
COPY packages/testing/package.json packages/testing/
COPY test/package.json test/
# esbuild (the build below) and tsx (the operator scripts, e.g. create-api-key) are dependencies,
# not devDependencies: NODE_ENV=production leaves those out here.
RUN npm ci --no-audit --no-fund
COPY . .
# The processes run bundles (ADR 0043), built from the sources just copied.
RUN node scripts/build.mjs
# DATA_DIR's default, writable by the service user (a volume mounted here takes this ownership).
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
# Every process of the image (each compose service) runs with the V8 flags `npm start` runs with (ADRs 0063
# and 0070), and the same fixed malloc thresholds (ADR 0066).
ENV NODE_OPTIONS="--max-semi-space-size=8 --v8-pool-size=2"
ENV MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072
CMD ["node", "dist/gateway.mjs"]
