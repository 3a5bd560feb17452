/**
 * Running many git calls without starting them all at once: a fixed number in flight,
 * so a long list never exhausts processes or file descriptors. Pure scheduling, no I/O.
 *
 * @module
 */

/** How many per-path git processes run at the same time. */
export const GIT_CONCURRENCY = 8;

/**
 * Map over items with at most `limit` calls in flight, keeping the input order.
 *
 * @example Double numbers two at a time
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(await mapBounded([1, 2, 3], 2, (n) => Promise.resolve(n * 2)), [2, 4, 6]);
 * ```
 * @param items The inputs.
 * @param limit Most calls running at once (at least 1).
 * @param fn The asynchronous call.
 * @returns The results, in input order.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  await Promise.all(workers);
  return results;
}
