/** The fixed set of bench queries, in the order they run and print (see bench/README.md). */
import { authTree } from './auth-tree';
import { endpointDetail } from './endpoint-detail';
import { networkGraph } from './network-graph';
import { networkList } from './network-list';
import { networkMap } from './network-map';
import { topTalkers } from './top-talkers';
import { v2Reach } from './v2-reach';
import type { BenchQuery } from './types';

export const BENCH_QUERIES: readonly BenchQuery[] = [networkGraph, endpointDetail, networkList, authTree, networkMap, topTalkers, v2Reach];
