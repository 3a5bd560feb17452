/**
 * Times: `handshake_issued_at` with seven fractional digits, and `--max-age` durations.
 *
 * @module
 */

let lastTicks = 0n;

/**
 * Format an instant as UTC ISO-8601 with seven fractional digits, as .NET's `'o'` does.
 *
 * @example Seven digits and Z
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(formatIssuedAt(1796000000000n * 10000n + 1234n), "2026-11-30T00:53:20.0001234Z");
 * ```
 * @param ticks 100-nanosecond ticks since the Unix epoch.
 * @returns `YYYY-MM-DDTHH:MM:SS.fffffffZ`.
 */
export function formatIssuedAt(ticks: bigint): string {
  const ms = Number(ticks / 10000n);
  const base = new Date(ms - (ms % 1000)).toISOString().slice(0, 19);
  const frac = (ticks % 10000000n).toString().padStart(7, "0");
  return `${base}.${frac}Z`;
}

/**
 * The current time as `handshake_issued_at`, strictly increasing within one process so
 * each block of a parallel batch carries its own timestamp.
 *
 * @returns The formatted time.
 */
export function issuedAtNow(): string {
  const now = BigInt(Math.floor((performance.timeOrigin + performance.now()) * 10000));
  lastTicks = now > lastTicks ? now : lastTicks + 1n;
  return formatIssuedAt(lastTicks);
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60000, h: 3600000, d: 86400000 };

/**
 * Parse a duration such as `90s`, `10m`, `2h`, `1d` or `500ms`.
 *
 * @example Ten minutes
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(parseDuration("10m"), 600000);
 * assertEquals(parseDuration("ten"), undefined);
 * ```
 * @param text The duration.
 * @returns Milliseconds, or undefined when malformed.
 */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d{1,9})(ms|s|m|h|d)$/.exec(text);
  return m ? Number(m[1]) * UNITS[m[2]!]! : undefined;
}
