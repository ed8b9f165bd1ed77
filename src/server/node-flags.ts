/**
 * V8 flags the gateway process runs with: `npm start` (package.json), the Docker image's CMD and
 * the benchmark's gateway child use these (test/unit/deploy.test.ts checks the first two agree).
 *
 * None: the young generation is V8's own (16 MB semi-spaces at most). It is a trade between two
 * kinds of replica, and the default is the one that holds many followers:
 *
 * - With V8's young generation, 10,000 WebSocket followers add 6.6–6.9 KiB each to the resident set.
 * - A replica that serves whole-network graphs spends less CPU with a larger one: with
 *   `NODE_OPTIONS=--max-semi-space-size=64` such a query (~100 MB of short-lived objects) costs
 *   25–30 % less gateway CPU, because scavenges copy its objects fewer times. But the young
 *   generation then grows once, under any load that keeps objects, by up to ~90 MiB that Node
 *   never gives back: 10,000 followers then read ~14 KiB each.
 *
 * docs/performance.md has both sets of figures; docs/operations.md says how to choose.
 */
export const GATEWAY_NODE_FLAGS: readonly string[] = [];
