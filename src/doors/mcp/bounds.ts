/**
 * The MCP door's bounds on what a caller sends, beside the request body's (1 MiB, handler.ts):
 * every loop the door runs over a tool's arguments runs under one of these, and a call past one
 * is refused (BAD_USER_INPUT, the message naming the bound) before any work is done for it.
 * The documents themselves are bounded by the pipeline's document limits, as on /graphql.
 */

export const MCP_BOUNDS = {
  /** `search_schema`: characters of `words` (checked first, so splitting it is bounded too). */
  searchChars: 256,
  /** `search_schema`: words per search; each schema entry is scored against each word once. */
  searchWords: 8,
  /** `introspect`: characters of `name` (a type, or a type and one of its fields). */
  nameChars: 256,
  /** Arguments of every tool (and `variables`): how deeply objects and lists nest. */
  argumentDepth: 32,
  /** A name the caller sent (a tool, an argument) is shown in messages and logs up to this many characters. */
  shownChars: 64,
} as const;

/** A caller's name as a message shows it: cut, so a refusal never echoes a whole body back. */
export function shown(name: string): string {
  return name.length > MCP_BOUNDS.shownChars ? `${name.slice(0, MCP_BOUNDS.shownChars)}…` : name;
}

/**
 * Whether a JSON value nests deeper than `max` objects and lists. Walked with a stack of its own
 * (a value JSON.parse read may nest far deeper than the call stack), and stopped at the first
 * level past the bound: at most every node once.
 */
export function nestsDeeper(value: unknown, max: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > max) return true;
    for (const inner of Array.isArray(next.value) ? next.value : Object.values(next.value)) {
      if (typeof inner === 'object' && inner !== null) pending.push({ value: inner, depth });
    }
  }
  return false;
}
