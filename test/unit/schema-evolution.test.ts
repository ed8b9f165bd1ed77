/**
 * Clients are protected from a breaking schema change: the executable schema is compared with the
 * committed snapshot (schema.graphql, written by `npm run schema:snapshot`) by graphql-inspector.
 *
 * - A breaking change (a field removed or renamed, a type changed, an argument made required)
 *   fails with graphql-inspector's messages: deprecate with `@deprecated(reason:)` and keep the old
 *   field, or, when the break is deliberate, update the snapshot in the same change.
 * - A dangerous change (an enum value or union member added, a default changed) is listed.
 * - Any other difference fails too, so the snapshot stays the schema clients see.
 */
import { readFileSync } from 'node:fs';
import { buildSchema as buildSdl } from 'graphql';
import { CriticalityLevel, diff, type Change } from '@graphql-inspector/core';
import { buildSchema } from '../../src/server/schema';
import { printPublicSchema, SNAPSHOT_FILE, snapshotPath } from '../../scripts/schema-snapshot';

const UPDATE = 'run `npm run schema:snapshot` and commit schema.graphql';

function lines(changes: readonly Change[]): string {
  return changes.map((c) => `- ${c.message}${c.path ? ` (${c.path})` : ''}${c.criticality.reason ? `: ${c.criticality.reason}` : ''}`).join('\n');
}

const printed = printPublicSchema(buildSchema());
const snapshot = readFileSync(snapshotPath(), 'utf8');
let changes: Change[] = [];

beforeAll(async () => {
  changes = await diff(buildSdl(snapshot), buildSdl(printed));
  const dangerous = changes.filter((c) => c.criticality.level === CriticalityLevel.Dangerous);
  // Listed, not failed: an added enum value or a changed default can surprise a client that switches on it.
  if (dangerous.length > 0) console.warn(`dangerous change(s) against ${SNAPSHOT_FILE}:\n${lines(dangerous)}`);
});

it('has no breaking change against the snapshot', () => {
  const breaking = changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking);
  if (breaking.length > 0) {
    throw new Error(
      `${breaking.length} breaking change(s) against ${SNAPSHOT_FILE}:\n${lines(breaking)}\n\n` +
        'Clients break on these. Keep the old field and mark it `@deprecated(reason: "Use … instead.")`; ' +
        `if the break is deliberate, ${UPDATE} in the same change.`,
    );
  }
});

it('has a snapshot that is the schema clients see', () => {
  const rest = changes.filter((c) => c.criticality.level !== CriticalityLevel.Breaking);
  if (rest.length > 0) throw new Error(`${SNAPSHOT_FILE} is behind the schema (${rest.length} change(s)):\n${lines(rest)}\n\n${UPDATE}.`);
  // Nothing graphql-inspector reports may still differ in print (e.g. a hand edit of the file).
  if (changes.length === 0 && printed !== snapshot) throw new Error(`${SNAPSHOT_FILE} differs from the printed schema: ${UPDATE}.`);
});
