/** The two pass-through floor servers (floor-servers.ts), named apart from their code so results and the table need not load Apollo. */
export type FloorKind = 'raw' | 'apollo';
export const FLOOR_KINDS: readonly FloorKind[] = ['raw', 'apollo'];

export function isFloorKind(value: unknown): value is FloorKind {
  return value === 'raw' || value === 'apollo';
}
