/**
 * The subscribers scenario's churn (`--churn SECONDS`, bench/subscribers.ts): once everyone has
 * left, followers come and go for a while, a round at a time (a batch of sockets opens, each
 * follower gets its first event, all close at once), as tabs open and close all day. What it
 * measures: the gateway's settled memory before and after (no growth: what a follower held is
 * given back), and the network's polls once the last round has left (none: the poller stopped).
 */
import type { GatewayHandle, SettledMemory } from './gateway-launcher';
import { Followers, OPENING_BATCH, POLL_INTERVAL_MS, sleep, until, WAIT_MS } from './subscribers';

export interface ChurnResult {
  seconds: number;
  /** Rounds run, and followers that came and went in all. */
  rounds: number;
  followers: number;
  settledBefore: SettledMemory;
  settledAfter: SettledMemory;
  /** Polls of the network in two intervals after the last round left (0: its poller stopped). */
  pollsAfter: number;
}

export interface ChurnOptions {
  gateway: GatewayHandle;
  token: string;
  networkId: string;
  seconds: number;
  /** Followers per round, and subscriptions per socket. */
  perRound: number;
  perSocket: number;
  polls(): number;
  log(line: string): void;
}

export async function runChurn(options: ChurnOptions): Promise<ChurnResult> {
  const wsUrl = options.gateway.url.replace(/^http/, 'ws');
  const settledBefore = await options.gateway.settledMemory();
  const until_ = performance.now() + options.seconds * 1000;
  let rounds = 0;
  let followers = 0;
  options.log(`subscribers: churn for ${options.seconds} s, ${options.perRound} followers a round`);
  while (performance.now() < until_) {
    const round = new Followers(options.perRound, options.perSocket);
    const sockets = Math.ceil(options.perRound / options.perSocket);
    for (let opened = 0; opened < sockets; opened += OPENING_BATCH) {
      for (let i = opened; i < Math.min(sockets, opened + OPENING_BATCH); i += 1) round.open(wsUrl, options.token, options.networkId, i);
      await until(() => round.firsts >= Math.min(options.perRound, (opened + OPENING_BATCH) * options.perSocket), WAIT_MS);
    }
    if (round.firsts < options.perRound) throw new Error(`churn: only ${round.firsts} of ${options.perRound} followers got their first event`);
    round.closeAll();
    rounds += 1;
    followers += round.firsts;
  }
  await sleep(POLL_INTERVAL_MS * 2);
  const pollsLeft = options.polls();
  await sleep(POLL_INTERVAL_MS * 2);
  const pollsAfter = options.polls() - pollsLeft;
  const settledAfter = await options.gateway.settledMemory();
  return { seconds: options.seconds, rounds, followers, settledBefore, settledAfter, pollsAfter };
}
