/**
 * The texts `verify` prints: the seed's environment-divergence finding (one source, byte
 * for byte), the match line and the unverified instruction.
 *
 * @module
 */
import { TREE_FIELDS, type TreeField, type TreeState } from "./fields.ts";

/** The tag a subagent puts on every tree-grounded finding on the error and missing paths. */
export const UNVERIFIED_TAG = "environment-unverified";

/** The seed's mismatch template; `{name}` placeholders are filled by {@linkcode divergenceFinding}. */
export const DIVERGENCE_TEMPLATE = `## Finding: environment-divergence (halting)

**Expected (from parent handshake):**

- HEAD: {parent_head}
- branch: {parent_branch}
- CWD: {parent_cwd}
- dirty fingerprint: {parent_dirty_fingerprint}

**Observed (live git verification):**

- HEAD: {observed_head}
- branch: {observed_branch}
- CWD: {observed_cwd}
- dirty fingerprint: {observed_dirty_fingerprint}

**Diverged fields:** {comma-separated list}

The subagent halted role work because its live environment does not match
the parent's dispatched handshake. No tree-grounded claims are emitted
on this dispatch. The parent session should reconcile the divergence
(e.g., commit pending edits, re-dispatch from the intended branch, or
explicitly acknowledge the mismatch) and re-dispatch.
`;

/**
 * Fill the divergence template. Placeholders are replaced in one pass, so a value that
 * itself looks like `{parent_cwd}` is printed as it is.
 *
 * @param expected The block's tree fields.
 * @param observed The live tree fields.
 * @param diverged The differing fields in schema order.
 * @returns The finding text, ending in a newline.
 */
export function divergenceFinding(
  expected: TreeState,
  observed: TreeState,
  diverged: TreeField[],
): string {
  const values: Record<string, string> = {
    ...expected,
    observed_head: observed.parent_head,
    observed_branch: observed.parent_branch,
    observed_cwd: observed.parent_cwd,
    observed_dirty_fingerprint: observed.parent_dirty_fingerprint,
    "comma-separated list": TREE_FIELDS.filter((f) => diverged.includes(f)).join(", "),
  };
  return DIVERGENCE_TEMPLATE.replace(
    /\{([a-z_ -]+)\}/g,
    (whole, key: string) => values[key] ?? whole,
  );
}

/**
 * The match line.
 *
 * @param head The verified HEAD.
 * @param branch The verified branch.
 * @returns `environment-verified: <head> on <branch>`.
 */
export function verifiedLine(head: string, branch: string): string {
  return `environment-verified: ${head} on ${branch}\n`;
}

/**
 * The error/missing text: the reason and the tagging instruction.
 *
 * @param reason Why the environment is unverified (`no handshake` on the missing path).
 * @returns Two lines.
 */
export function unverifiedText(reason: string): string {
  return `${UNVERIFIED_TAG}: ${reason}\n` +
    `Tag every tree-grounded finding ${UNVERIFIED_TAG}; findings from the task description or passed-in content stay untagged.\n`;
}
