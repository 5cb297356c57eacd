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
# The runtime settings of every process of the image, here and nowhere else (docs/running.md, ADR 0109):
# glibc's malloc thresholds fixed, so freed memory goes back to the OS (ADR 0066); a 16 MiB young
# generation (ADR 0063), two V8 helper threads for two cores (ADR 0070), and the heap grown 30 % past
# what the last full collection kept (ADRs 0044, 0077). Each compose service names its bundle.
ENV MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072
ENTRYPOINT ["node", "--max-semi-space-size=8", "--v8-pool-size=2", "--heap-growing-percent=30"]
CMD ["dist/gateway.mjs"]
