/**
 * Seeded randomness: the same seed gives the same data, so tests and the benchmark can rely on
 * stable seed contents. mulberry32 is small and good enough for synthetic data.
 */
export interface Random {
  /** A number in [0, 1). */
  next(): number;
  /** A UUID in v4 form built from the generator. */
  uuid(): string;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (count: number): string => {
    let out = '';
    for (let i = 0; i < count; i++) out += Math.floor(next() * 16).toString(16);
    return out;
  };
  const uuid = (): string => {
    const variant = (8 + Math.floor(next() * 4)).toString(16);
    return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
  };
  return { next, uuid };
}
