/**
 * Checking a child's evidence against the tree: `commit` must exist and be a commit,
 * `file` must exist in the worktree (with the given blob id, when one is given); any
 * other kind cannot be checked and is `unverified`, never `verified`.
 *
 * @module
 */
import { jailRelativePath } from "../contract/jail.ts";
import type { SubagentEvidence } from "../contract/schemas.ts";
import { isFullOid, type ObjectFormat } from "../git.ts";
import { objectTypes, worktreeBlob } from "./repo.ts";

/** What gate concluded about one evidence item. */
export type EvidenceStatus = "verified" | "refuted" | "unverified";

/** One checked evidence item, as `--json` prints it. */
export interface CheckedEvidence {
  /** The child's kind. */
  kind: string;
  /** The child's ref. */
  ref: string;
  /** The verdict on it. */
  status: EvidenceStatus;
}

/** A checked item and, when it is not verified, why. */
export interface EvidenceFinding extends CheckedEvidence {
  /** Why it was refuted or left unverified. */
  why?: string;
}

/**
 * Whether gate can check an evidence kind at all.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals([isCheckable("commit"), isCheckable("file"), isCheckable("test")], [true, true, false]);
 * ```
 * @param kind The evidence kind.
 * @returns True for `commit` and `file`.
 */
export function isCheckable(kind: string): boolean {
  return kind === "commit" || kind === "file";
}

/**
 * Check every evidence item. Git is asked once for all commits and once per file.
 *
 * @param evidence The child's evidence.
 * @param repo Top level and object format, or null outside git (checkable kinds then
 *   cannot be checked, and the caller decides what that means).
 * @returns One finding per item, in order.
 */
export async function checkEvidence(
  evidence: readonly SubagentEvidence[],
  repo: { top: string; format: ObjectFormat },
): Promise<EvidenceFinding[]> {
  const commits = [
    ...new Set(
      evidence.filter((e) => e.kind === "commit" && isFullOid(e.ref, repo.format)).map((e) =>
        e.ref
      ),
    ),
  ];
  const types = await objectTypes(repo.top, commits);
  return await Promise.all(evidence.map(async (item): Promise<EvidenceFinding> => {
    const { kind, ref } = item;
    const quoted = JSON.stringify(ref);
    if (kind === "commit") {
      if (!isFullOid(ref, repo.format)) {
        return {
          kind,
          ref,
          status: "refuted",
          why: `commit ${quoted} is not a full ${repo.format} object id`,
        };
      }
      const type = types.get(ref);
      if (type === "commit") return { kind, ref, status: "verified" };
      return {
        kind,
        ref,
        status: "refuted",
        why: type === "missing"
          ? `commit ${quoted} does not exist`
          : `${quoted} is a ${type}, not a commit`,
      };
    }
    if (kind === "file") {
      let path: string;
      try {
        path = jailRelativePath(ref);
      } catch (error) {
        return { kind, ref, status: "refuted", why: `file ${(error as Error).message}` };
      }
      const blob = await worktreeBlob(repo.top, path);
      if (blob === null) {
        return {
          kind,
          ref,
          status: "refuted",
          why: `file ${quoted} does not exist in the worktree`,
        };
      }
      if (item.oid !== undefined && item.oid !== blob) {
        return {
          kind,
          ref,
          status: "refuted",
          why: `file ${quoted} has blob ${blob}, not ${item.oid}`,
        };
      }
      return { kind, ref, status: "verified" };
    }
    return {
      kind,
      ref,
      status: "unverified",
      why: `kind ${JSON.stringify(kind)} cannot be checked`,
    };
  }));
}
