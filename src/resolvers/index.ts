/**
 * All resolvers, merged per type from each area. An area never replaces another's field:
 * a duplicate field is a programming error and fails at start-up.
 */
import type { Resolvers } from '../generated/graphql';
import { commonResolvers } from './common';
import { networkResolvers } from './network';
import { workflowResolvers } from './workflow';
import { authResolvers } from './auth';
import { provisioningResolvers } from './provisioning';
import { coreV2Resolvers } from './core-v2';
import { eventResolvers } from './events';
import { networkLiveResolvers } from './network-live';
import { nodeResolvers } from './node';

export const areaResolvers: ReadonlyArray<readonly [string, Resolvers]> = [
  ['common', commonResolvers],
  ['network', networkResolvers],
  ['workflow', workflowResolvers],
  ['auth', authResolvers],
  ['provisioning', provisioningResolvers],
  ['core-v2', coreV2Resolvers],
  ['events', eventResolvers],
  ['network-live', networkLiveResolvers],
  ['node', nodeResolvers],
];

export function mergeResolvers(areas: ReadonlyArray<readonly [string, Resolvers]>): Resolvers {
  const merged: Record<string, unknown> = {};
  for (const [area, resolvers] of areas) {
    for (const [typeName, fields] of Object.entries(resolvers)) {
      const existing = merged[typeName];
      if (existing === undefined) {
        merged[typeName] = fields;
        continue;
      }
      if (!isPlainRecord(existing) || !isPlainRecord(fields)) {
        throw new Error(`resolvers: ${typeName} is defined by more than one area (last: ${area})`);
      }
      for (const field of Object.keys(fields)) {
        if (field in existing) throw new Error(`resolvers: ${typeName}.${field} is defined twice (last: ${area})`);
      }
      merged[typeName] = { ...existing, ...fields };
    }
  }
  return merged as Resolvers;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

export const resolvers: Resolvers = mergeResolvers(areaResolvers);

/** What the provisioning runner needs, bound to one owner (the server wires it; src/provisioning runs it). */
export { provisioningDeps } from './provisioning';
