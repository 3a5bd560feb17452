/**
 * `gate`'s command line and input, without zod and without git: the options, their checks,
 * the help text and exit codes, and reading the child's result from stdin. `gate.ts` runs
 * these first, so a usage error runs no git, and the tree is read only after the result has
 * ended (a child writing on a pipe is done by then).
 *
 * @module
 */
import {
  helpOrVersion,
  InputError,
  out,
  parseCli,
  readStdin,
  UsageError,
  VERSION,
} from "../cli.ts";
import { decodePrompt } from "../encoding.ts";

/** Exit code: the child's result is accepted. */
export const EXIT_ACCEPT = 0;
/** Exit code: the child's result is rejected. */
export const EXIT_REJECT = 1;
/** Exit code: gate could not reach a verdict. */
export const EXIT_CANNOT_EVALUATE = 3;
/** The largest result gate reads: 8 MiB. */
export const MAX_RESULT_BYTES = 8 * 1024 * 1024;

/** The `--help` text. */
export const HELP =
  `gate: check a subagent's SubagentResult against the tree (runs with --allow-run=git only)

Usage:
  gate [--since <snapshot id> [--done]] [--json] [--accept-unverified] < result.json

Reads the child's SubagentResult JSON on stdin and prints a verdict.

Options:
  --since OID            the spawn snapshot id (the "snapshot:" line of the
                         [working-context] block); adds observed changes, and
                         marks evidence already true at spawn "preexisting"
  --done                 the parent is done with the snapshot: release its anchor
                         (refs/tether/snapshots/…) after the verdict
  --json                 one JSON document: { verdict, reasons, evidence, changes, recent_files }
  --accept-unverified    accept ok:true whose evidence is all of kinds gate cannot check
  --worktree DIR         judge against what the child changed in DIR (a handshake --worktree
                         child) since its seed: commits and uncommitted changes alike
  --seed ID              with --worktree, required: the child's seed (the "seed:" line of its
                         block, or "seed" in handshake --json); DIR must be the worktree
                         spawned from it (git worktree list, its branch; its spawn ref, when
                         it still exists, must point at ID)
  --land                 with --worktree, on accept: apply those changes to this working tree
                         (three-way merge against the seed; on a conflict nothing changes, exit 1)
  --keep                 with --land: keep the worktree and its branch, and record what
                         landed: prints "land record: ID" (a commit id)
  --landed ID            with --land: the newest land record a kept land of this child
                         printed, taken only from gate's own "land record:" line (or
                         land.record in --json), never from anything the child wrote. The
                         round is then what the child changed since the record (an undo or
                         a rename since included): claims and file evidence are judged
                         against it, a claim of a path already landed is named as such,
                         and a report whose claims are all already landed is rejected. Only
                         that round lands; a path not changed since keeps the parent's
                         version. A record deleted or altered since the kept land: exit 3,
                         nothing landed. Without --landed the land merges against the seed,
                         which re-applies what the parent took out after a kept land (a
                         record is never taken from refs)
  -h, --help, help       this text
  -V, --version          the version

Exit codes:
  0  accept (with --land: landed; what could not be removed afterwards is a
     "warning:" line on stderr, and the land is still reported)
  1  reject (schema violation, no evidence, refuted evidence, unobserved claims,
     input that is empty, not JSON, not UTF-8 (nor UTF-16) or larger than 8 MiB)
  2  usage error
  3  could not evaluate (not a git repository, unknown snapshot, git failed, DIR not
     the worktree spawned from --seed, --landed not a land record of that child on
     that seed); nothing landed
`;

const OPTIONS = {
  since: { type: "string" },
  json: { type: "boolean" },
  "accept-unverified": { type: "boolean" },
  done: { type: "boolean" },
  worktree: { type: "string" },
  seed: { type: "string" },
  landed: { type: "string" },
  land: { type: "boolean" },
  keep: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const;

/** `gate`'s checked command line. */
export interface GateArgs {
  since?: string;
  worktree?: string;
  seed?: string;
  landed?: string;
  json: boolean;
  acceptUnverified: boolean;
  done: boolean;
  land: boolean;
  keep: boolean;
}

/**
 * Parse and check `gate`'s command line, zod-free and without running git: a usage error,
 * `--help` and `--version` end here, before anything reads the tree.
 *
 * @example A plain `--since` run, and a usage error
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const oid = "a".repeat(40);
 * const parsed = await gateArgs(["--since", oid, "--json"], { stdinIsTerminal: false });
 * assertEquals(typeof parsed === "number" ? parsed : parsed.since, oid);
 * const bad = await gateArgs(["--since", "HEAD"], { stdinIsTerminal: false }).catch((e) => e);
 * assertEquals(bad instanceof Error && bad.message, '--since "HEAD" is not a full object id (40 or 64 lowercase hex)');
 * ```
 * @param args Command-line arguments.
 * @param io Whether stdin is a terminal (default: ask Deno).
 * @returns The checked arguments, or the exit code once help or the version was printed.
 * @throws {UsageError} on a bad option or value.
 */
export async function gateArgs(
  args: string[],
  io: { stdinIsTerminal: boolean } = { stdinIsTerminal: Deno.stdin.isTerminal() },
): Promise<GateArgs | number> {
  const asked = helpOrVersion(args);
  const { values, positionals } = parseCli(asked ? [] : args, OPTIONS);
  if (values.help || asked === "help") {
    await out(HELP);
    return 0;
  }
  if (values.version || asked === "version") {
    await out(`gate ${VERSION}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
  const since = values.since;
  if (since !== undefined && !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(since)) {
    throw new UsageError(`--since "${since}" is not a full object id (40 or 64 lowercase hex)`);
  }
  if (values.done && since === undefined) throw new UsageError("--done needs --since");
  if ((values.land || values.keep) && values.worktree === undefined) {
    throw new UsageError("--land and --keep go with --worktree");
  }
  if (values.keep && !values.land) throw new UsageError("--keep goes with --land");
  if (values.seed !== undefined && values.worktree === undefined) {
    throw new UsageError("--seed goes with --worktree");
  }
  if (values.worktree !== undefined && values.seed === undefined) {
    throw new UsageError(
      '--worktree needs --seed ID: the "seed:" line of the child\'s handshake block (or "seed" in handshake --json)',
    );
  }
  if (values.seed !== undefined && !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(values.seed)) {
    throw new UsageError(
      `--seed "${values.seed}" is not a full object id (40 or 64 lowercase hex)`,
    );
  }
  if (values.landed !== undefined && !values.land) {
    throw new UsageError("--landed goes with --land");
  }
  if (values.landed !== undefined && !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(values.landed)) {
    throw new UsageError(
      `--landed "${values.landed}" is not a full object id (40 or 64 lowercase hex): give the id a kept land printed ("land record: ID")`,
    );
  }
  if (values.worktree !== undefined && since !== undefined) {
    throw new UsageError("--since and --worktree cannot be used together");
  }
  if (io.stdinIsTerminal) throw new UsageError("Pipe the child's SubagentResult JSON on stdin");
  return {
    ...(since === undefined ? {} : { since }),
    ...(values.worktree === undefined ? {} : { worktree: values.worktree }),
    ...(values.seed === undefined ? {} : { seed: values.seed }),
    ...(values.landed === undefined ? {} : { landed: values.landed }),
    json: values.json ?? false,
    acceptUnverified: values["accept-unverified"] ?? false,
    done: values.done ?? false,
    land: values.land ?? false,
    keep: values.keep ?? false,
  };
}

/**
 * Read the child's result from stdin to its end, as strict UTF-8 or UTF-16 within the size
 * limit. Its end is when a child writing on a pipe is done, so gate reads the tree after it.
 *
 * @returns The text, or the problem (too large, not valid UTF-8 or UTF-16).
 */
export async function readResultText(): Promise<{ text: string } | { problem: string }> {
  let bytes: Uint8Array;
  try {
    bytes = await readStdin(MAX_RESULT_BYTES);
  } catch (error) {
    if (error instanceof InputError) {
      return { problem: `Result is larger than ${MAX_RESULT_BYTES} bytes` };
    }
    throw error;
  }
  // UTF-16 with a byte order mark (what Windows PowerShell writes) is read as well.
  const decoded = decodePrompt(bytes);
  if (!decoded.valid) {
    return { problem: `Result is not valid ${decoded.encoding.toUpperCase()}` };
  }
  return { text: decoded.text };
}
