/**
 * Anchoring objects tether writes (spawn snapshots, and any other object a parent needs
 * back later) with a ref, so `git gc --prune=now` keeps them until the parent is done, and
 * letting them go: released explicitly, or expired after {@linkcode ANCHOR_MAX_AGE_DAYS}
 * days when the next one is anchored. An anchor is `refs/tether/<kind>/<seconds>/<oid>`:
 * the time of anchoring is in the name, so expiry needs no object read. Every step is a
 * fixed number of git calls, whatever the number of anchors.
 *
 * @module
 */
import { gitText, runGit } from "./git.ts";

/** Anchors older than this many days are removed when a new one of the same kind is made. */
export const ANCHOR_MAX_AGE_DAYS = 14;

/** What an anchor ref names. */
export interface Anchor {
  /** The ref, `refs/tether/<kind>/<seconds>/<oid>`. */
  ref: string;
  /** When it was made, seconds since the epoch. */
  seconds: number;
  /** The object it keeps. */
  oid: string;
}

/**
 * The ref that anchors an object.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(anchorRef("snapshots", "ab".repeat(20), 1700000000), `refs/tether/snapshots/1700000000/${"ab".repeat(20)}`);
 * ```
 * @param kind The namespace (`snapshots`, `seeds`, …): lowercase letters.
 * @param oid A full object id.
 * @param seconds The time of anchoring, seconds since the epoch.
 * @returns The ref name.
 */
export function anchorRef(kind: string, oid: string, seconds: number): string {
  return `refs/tether/${kind}/${Math.floor(seconds)}/${oid}`;
}

/**
 * Read an anchor ref back.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(parseAnchorRef("snapshots", `refs/tether/snapshots/5/${"a".repeat(40)}`)?.seconds, 5);
 * assertEquals(parseAnchorRef("snapshots", "refs/tether/snapshots/x/y"), undefined);
 * ```
 * @param kind The namespace.
 * @param ref A ref name.
 * @returns The anchor, or undefined when the ref is not one of `kind`.
 */
export function parseAnchorRef(kind: string, ref: string): Anchor | undefined {
  const prefix = `refs/tether/${kind}/`;
  if (!ref.startsWith(prefix)) return undefined;
  const match = /^(\d+)\/([0-9a-f]{40}|[0-9a-f]{64})$/.exec(ref.slice(prefix.length));
  return match ? { ref, seconds: Number(match[1]), oid: match[2]! } : undefined;
}

/**
 * The anchors of a kind (one `git for-each-ref` call).
 *
 * @param top Top level.
 * @param kind The namespace.
 * @returns The anchors.
 * @throws {GitError} when git fails.
 */
export async function listAnchors(top: string, kind: string): Promise<Anchor[]> {
  const text = await gitText(["for-each-ref", "--format=%(refname)", `refs/tether/${kind}/`], {
    cwd: top,
  });
  return text.split("\n").map((ref) => parseAnchorRef(kind, ref)).filter((a): a is Anchor =>
    a !== undefined
  );
}

/**
 * Anchor an object, and remove anchors of the same kind older than the maximum age.
 * At most three git calls: list, create, delete the expired ones (best effort: an anchor
 * another process removed meanwhile is no failure).
 *
 * @param top Top level.
 * @param kind The namespace.
 * @param oid A full object id that exists.
 * @param nowMs The current time in milliseconds (a parameter, so tests can age anchors).
 * @param companion A second object kept alive with the first (for a snapshot, the spawn's
 *   HEAD commit): `refs/tether/<companion.kind>/<seconds>/<oid>` names the first object
 *   and points at the second, created in the same transaction and expired with it.
 * @returns The new anchor's ref.
 * @throws {GitError} when the anchor cannot be created.
 */
export async function anchorObject(
  top: string,
  kind: string,
  oid: string,
  nowMs: number = Date.now(),
  companion?: { kind: string; oid: string },
): Promise<string> {
  const seconds = Math.floor(nowMs / 1000);
  const [existing, others] = await Promise.all([
    listAnchors(top, kind),
    companion ? listAnchors(top, companion.kind) : Promise.resolve([]),
  ]);
  const ref = anchorRef(kind, oid, seconds);
  const second = companion ? anchorRef(companion.kind, oid, seconds) : undefined;
  await gitText(["update-ref", "--stdin"], {
    cwd: top,
    stdin: `start\nupdate ${ref} ${oid}\n` +
      (second ? `update ${second} ${companion!.oid}\n` : "") + // guard: spawn HEAD anchored
      "prepare\ncommit\n",
  });
  const oldest = seconds - ANCHOR_MAX_AGE_DAYS * 86_400;
  const expired = [...existing, ...others].filter((a) =>
    a.seconds < oldest && a.ref !== ref && a.ref !== second // guard: expiry
  );
  if (expired.length > 0) {
    await runGit(["update-ref", "--stdin"], {
      cwd: top,
      stdin: expired.map((a) => `delete ${a.ref}\n`).join(""),
      allowFailure: true,
    });
  }
  return ref;
}

/**
 * Remove every anchor of an object (two git calls at most), in each of the given
 * namespaces (an anchor's name carries the object it keeps, also a companion's).
 *
 * @param top Top level.
 * @param kind The namespace.
 * @param oid The object id.
 * @param also Further namespaces whose anchors name the same object (companions).
 * @returns How many anchors were removed.
 * @throws {GitError} when git fails.
 */
export async function releaseObject(
  top: string,
  kind: string,
  oid: string,
  also: readonly string[] = [],
): Promise<number> {
  const lists = await Promise.all([kind, ...also].map((k) => listAnchors(top, k)));
  const mine = lists.flat().filter((a) => a.oid === oid);
  if (mine.length > 0) {
    await gitText(["update-ref", "--stdin"], {
      cwd: top,
      stdin: mine.map((a) => `delete ${a.ref}\n`).join(""),
    });
  }
  return mine.length;
}
