/**
 * The fixed set of bench queries, in the order they run and print. `topTalkers` is not here yet:
 * the events area does not exist in this build (see bench/README.md).
 */
import { authTree } from './auth-tree';
import { endpointDetail } from './endpoint-detail';
import { networkGraph } from './network-graph';
import { networkList } from './network-list';
import { networkMap } from './network-map';
import type { BenchQuery } from './types';

export const BENCH_QUERIES: readonly BenchQuery[] = [networkGraph, endpointDetail, networkList, authTree, networkMap];
