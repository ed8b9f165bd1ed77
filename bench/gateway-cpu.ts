/**
 * The gateway's own CPU time over a phase of the benchmark: its process's CPU clock (user +
 * system, every thread) read before and after, divided by the requests the phase completed.
 * In-process there is no clock of the gateway's own, and every figure is null.
 */
import type { GatewayHandle } from './gateway-launcher';
import { round } from './stats';

export interface CpuMeasured<T> {
  value: T;
  /** Gateway CPU ms spent during the phase (null in-process). */
  cpuMs: number | null;
}

/** `gateway` is any process with a CPU clock of its own: a gateway, or a floor server. */
export async function withGatewayCpu<T>(gateway: Pick<GatewayHandle, 'cpuMicros'>, phase: () => Promise<T>): Promise<CpuMeasured<T>> {
  const before = await gateway.cpuMicros();
  const value = await phase();
  const after = await gateway.cpuMicros();
  return { value, cpuMs: before === null || after === null ? null : (after - before) / 1000 };
}

/** CPU ms per completed request, rounded for results.json (null when unknown or nothing completed). */
export function cpuPerRequest(cpuMs: number | null, completed: number): number | null {
  return cpuMs === null || completed <= 0 ? null : round(cpuMs / completed, 3);
}
