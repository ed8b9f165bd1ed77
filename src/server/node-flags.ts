/**
 * V8 flags the gateway process runs with: `npm start` (package.json), the Docker image's CMD and
 * the benchmark's gateway child use these (test/unit/deploy.test.ts checks the first two agree).
 *
 * A larger young generation: a whole-network graph allocates ~100 MB of short-lived objects
 * (records, promises, result objects); with V8's default 16 MB semi-spaces they are copied by
 * scavenges again and again. 64 MB semi-spaces cut the gateway's CPU per such query by ~15 %
 * (measured with the bench's CPU column) for 96 MB more address space at most.
 */
export const GATEWAY_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
