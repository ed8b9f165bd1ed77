/** Options every area's loader factory takes. */
export interface LoaderOptions {
  /**
   * When false, DataLoaders neither batch nor cache and relationship fields always take the
   * naive per-parent plan. Exists only so the benchmark can measure what batching buys.
   */
  batching: boolean;
}
