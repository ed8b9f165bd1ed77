/**
 * A result's JSON bytes, made once per result object: followers of one event with one document
 * and credential share one result object (src/pipeline/event-executions.ts), so a door that sends
 * it to two thousand of them serializes it once and hands every connection the same bytes.
 * Held by the result object (a WeakMap): when the event is gone, so are its bytes.
 */
export class SerializedOnce {
  private readonly made = new WeakMap<object, Buffer>();
  /** Results serialized so far (a result sent to many connections counts once): for stats and tests. */
  serializations = 0;

  /** `result` as UTF-8 JSON bytes; the same Buffer for every call with the same object (never to be written to). */
  bytesOf(result: object): Buffer {
    let bytes = this.made.get(result);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(result));
      this.serializations += 1;
      this.made.set(result, bytes);
    }
    return bytes;
  }
}
