/**
 * The `handshake` binary's work: capture live (or take explicit fields), build blocks,
 * wrap a prompt, and add the working context.
 *
 * @module
 */
import { buildBlock } from "../handshake/block.ts";
import { captureLive, type LiveTree } from "../handshake/capture.ts";
import { styleCwd } from "../handshake/cwd.ts";
import {
  type FieldName,
  type Handshake,
  normaliseField,
  type TreeState,
  validateField,
} from "../handshake/fields.ts";
import { fingerprint } from "../handshake/fingerprint.ts";
import { issuedAtNow } from "../time.ts";
import {
  err,
  helpOrVersion,
  InputError,
  isPermissionError,
  out,
  parseCli,
  type ParsedCli,
  permissionMessage,
  readStdin,
  UsageError,
  VERSION,
} from "../cli.ts";
import type { ContextResult } from "../context/capture.ts";
import { buildV2Block } from "../handshake/v2/block.ts";
import { type DecodedPrompt, decodePrompt, prependTo } from "../encoding.ts";
import { GitError } from "../git_error.ts";

/** Exit code when the parent side cannot capture its tree. */
export const EXIT_PARENT_FAILURE = 3;

/** The `--help` text. */
export const HANDSHAKE_HELP =
  `handshake ${VERSION}: capture the live tree into a handshake block (v1; v2 with --exact)

Usage:
  handshake [options]          print the block for the current directory
  handshake wrap [options]     read a task prompt on stdin; print block, blank line, prompt
  handshake hook [options]     Claude Code PreToolUse hook: read the payload on stdin; for a
                               Task/Agent call print updatedInput with the prompt wrapped
  handshake prune-seeds [--older-than DURATION]
                               delete seed anchors older than DURATION (default 7d)

Options:
  --exact                      a v2 block carrying a seed: the exact content state (HEAD,
                               index, working tree) as git objects under refs/tether/seeds/
  --count N                    one capture, N blocks (each its own handshake_issued_at);
                               with wrap, only together with --json
  --json                       one JSON document: { block, blocks, fields, context, snapshot_id, prompt }
  --cwd-style native|posix     spell parent_cwd natively (default) or as Git Bash's pwd (/c/...)
  --context                    add the [working-context] block (stored as a git blob)
  --recent PATH                a recent file for the working context (repeatable)
  --audience private|public    public: no path and no git state in the prompt, so the
                               handshake block is left out too (default private)
  --strict                     wrap: fail (exit 3, nothing on stdout) instead of passing the prompt through
  --head SHA --branch NAME --cwd PATH (--fingerprint HEX12 | --porcelain-stdin)
                               explicit fields instead of a live capture (deterministic with --issued-at)
  --issued-at TIME             handshake_issued_at, any UTC ISO-8601 form (Z, +00:00);
                               printed as the seed's seven-digit Z form
  --worktree DIR               worktree mode: make a linked worktree at DIR (with --count N:
                               DIR/1 … DIR/N) holding the parent's exact state; print a v2 block
  --workspace-mode worktree    worktree mode for a worktree the harness makes (no DIR)
  -h, --help, help             this text
  -V, --version                the version

wrap passes the prompt's bytes through unchanged; a UTF-16 prompt (with a BOM) gets its block
in UTF-16, the BOM first.

Exit codes: 0 printed, 2 usage error, 3 parent-side failure (not a repository, git missing
or failing; nothing on stdout). wrap on failure prints the prompt unchanged and exits 0.
hook: 0 (wrapped, another tool, or capture failed: spawned unwrapped, reason on stderr),
1 payload that is not a PreToolUse payload (Claude Code shows it and goes ahead).
`;

const OPTIONS = {
  exact: { type: "boolean" },
  "older-than": { type: "string" },
  count: { type: "string" },
  json: { type: "boolean" },
  "cwd-style": { type: "string" },
  context: { type: "boolean" },
  recent: { type: "string", multiple: true },
  audience: { type: "string" },
  strict: { type: "boolean" },
  head: { type: "string" },
  branch: { type: "string" },
  cwd: { type: "string" },
  fingerprint: { type: "string" },
  "porcelain-stdin": { type: "boolean" },
  "issued-at": { type: "string" },
  worktree: { type: "string" },
  "workspace-mode": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const;

type Values = ParsedCli<typeof OPTIONS>["values"];

/** A flag's value, validated and in the seed's spelling (lowercase hex, seven-digit `Z` time). */
function checked(name: FieldName, value: string): string {
  const reason = validateField(name, value);
  if (reason) throw new UsageError(reason);
  return normaliseField(name, value);
}

function choice<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be ${allowed.join(" or ")}: ${JSON.stringify(value)}`);
  }
  return value as T;
}

/** Explicit tree fields from flags, or undefined when none were given. */
async function explicitTree(v: Values, wrap: boolean): Promise<TreeState | undefined> {
  const given = [v.head, v.branch, v.cwd, v.fingerprint].some((x) => x !== undefined) ||
    v["porcelain-stdin"];
  if (!given) return undefined;
  if (v.head === undefined || v.branch === undefined || v.cwd === undefined) {
    throw new UsageError("explicit fields need --head, --branch and --cwd together");
  }
  if ((v.fingerprint === undefined) === !v["porcelain-stdin"]) {
    throw new UsageError("explicit fields need exactly one of --fingerprint and --porcelain-stdin");
  }
  if (v["porcelain-stdin"] && wrap) {
    throw new UsageError("--porcelain-stdin cannot be used with wrap");
  }
  const fp = v.fingerprint ?? await fingerprint(await readStdin());
  return {
    parent_head: checked("parent_head", v.head),
    parent_branch: checked("parent_branch", v.branch),
    parent_cwd: checked("parent_cwd", v.cwd),
    parent_dirty_fingerprint: checked("parent_dirty_fingerprint", fp),
  };
}

/** The context block and a blank line, or nothing. */
function contextPrefix(context: ContextResult | undefined): string {
  return context ? `${context.block.replace(/\n*$/, "\n")}\n` : "";
}

/** A parent-side capture whose values a v1 block cannot carry (a newline in a path, …). */
class UnrepresentableError extends Error {}

/**
 * The four tree fields alone, styled, and checked against the schema before they are
 * printed. A live HEAD must be detached or on a branch other than one named `HEAD` (which
 * a block cannot tell from a detached HEAD).
 */
function representable(tree: TreeState | LiveTree, cwdStyle: "native" | "posix"): TreeState {
  if ("headRef" in tree) {
    const ref = tree.headRef;
    if (ref === "refs/heads/HEAD" || (ref !== "HEAD" && !ref.startsWith("refs/heads/"))) {
      throw new UnrepresentableError(
        `The live tree cannot be carried in a v1 block: HEAD is on ${
          JSON.stringify(ref)
        }, which parent_branch cannot name apart from a detached HEAD or a branch`,
      );
    }
  }
  const fields: TreeState = {
    parent_head: tree.parent_head,
    parent_branch: tree.parent_branch,
    parent_cwd: styleCwd(tree.parent_cwd, cwdStyle),
    parent_dirty_fingerprint: tree.parent_dirty_fingerprint,
  };
  for (const [name, value] of Object.entries(fields)) {
    const reason = validateField(name as FieldName, value);
    if (reason) {
      throw new UnrepresentableError(`The live tree cannot be carried in a v1 block: ${reason}`);
    }
  }
  return fields;
}

/** The `--json` document; the same keys on success and on a pass-through. */
function jsonDocument(
  blocks: string[],
  fields: Handshake | null,
  context: ContextResult | undefined,
  prompts: string[] | null,
) {
  return {
    block: blocks[0] ?? null,
    blocks,
    fields,
    context: context?.context ?? null,
    context_block: context?.block ?? null,
    snapshot_id: context?.snapshotId ?? null,
    prompt: prompts?.[0] ?? null,
    prompts,
  };
}

function describe(error: unknown): string {
  if (isPermissionError(error)) return permissionMessage("handshake", error);
  if (error instanceof GitError) {
    return error.kind === "not-a-repository" ? "not a git repository" : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Run `handshake` with its arguments.
 *
 * @param args Command-line arguments.
 * @returns The exit code.
 * @throws {UsageError} for bad arguments.
 */
export async function handshakeMain(args: string[]): Promise<number> {
  const asked = helpOrVersion(args);
  const { values: v, positionals } = parseCli(asked ? [] : args, OPTIONS);
  if (v.help || asked === "help") return await out(HANDSHAKE_HELP), 0;
  if (v.version || asked === "version") return await out(`handshake ${VERSION}\n`), 0;
  if (
    positionals.length > 1 ||
    (positionals[0] !== undefined && !["wrap", "hook", "prune-seeds"].includes(positionals[0]))
  ) {
    throw new UsageError(`Unknown command: ${JSON.stringify(positionals.join(" "))}`);
  }
  if (positionals[0] === "prune-seeds") {
    const other = Object.keys(v).filter((k) => !["older-than", "json"].includes(k));
    if (other.length) throw new UsageError(`prune-seeds takes no --${other[0]}`);
    const { pruneSeedsMain } = await import("../handshake/v2/prune.ts");
    return await pruneSeedsMain(v["older-than"], v.json ?? false);
  }
  if (v["older-than"] !== undefined) throw new UsageError("--older-than goes with prune-seeds");
  if (positionals[0] === "hook") return await hook(v);
  const wrap = positionals[0] === "wrap";
  const o = readOptions(v, wrap);
  if (v.worktree !== undefined || o.mode === "worktree") return await worktreeMode(v, o, wrap);
  return await sharedMode(v, o, wrap);
}

/** The options every form of `handshake` and `wrap` shares, checked. */
interface Options {
  count: number;
  cwdStyle: "native" | "posix";
  audience: "private" | "public";
  issuedAt: string | undefined;
  mode: "shared" | "worktree";
}

/** Read and check the options shared by every form (count, styles, audience, mode). */
function readOptions(v: Values, wrap: boolean): Options {
  const count = v.count === undefined ? 1 : Number(v.count);
  if (!Number.isInteger(count) || count < 1 || count > 1000 || !/^\d+$/.test(v.count ?? "1")) {
    throw new UsageError(
      `--count must be a whole number from 1 to 1000: ${JSON.stringify(v.count)}`,
    );
  }
  const cwdStyle = choice("cwd-style", v["cwd-style"], ["native", "posix"] as const, "native");
  const audience = choice("audience", v.audience, ["private", "public"] as const, "private");
  if (v.recent && !v.context) throw new UsageError("--recent goes with --context");
  if (v.audience !== undefined && !v.context) {
    throw new UsageError("--audience goes with --context");
  }
  if (v.strict && !wrap) throw new UsageError("--strict goes with wrap");
  if (wrap && count > 1 && !v.json) {
    // N wrapped prompts in one text stream could not be told apart: each holds the task,
    // which may itself hold anything.
    throw new UsageError("wrap --count needs --json (one prompt each in prompts[])");
  }
  const issuedAt = v["issued-at"] === undefined
    ? undefined
    : checked("handshake_issued_at", v["issued-at"]);
  const mode = choice(
    "workspace-mode",
    v["workspace-mode"],
    ["shared", "worktree"] as const,
    "shared",
  );
  return { count, cwdStyle, audience, issuedAt, mode };
}

/** `--worktree DIR` or `--workspace-mode worktree`: the children and their v2 blocks. */
async function worktreeMode(v: Values, o: Options, wrap: boolean): Promise<number> {
  const { count, cwdStyle, issuedAt, mode } = o;
  if (mode === "shared" && v["workspace-mode"] !== undefined) {
    throw new UsageError("--worktree needs --workspace-mode worktree or none");
  }
  if (
    [v.head, v.branch, v.cwd, v.fingerprint].some((x) => x !== undefined) || v["porcelain-stdin"]
  ) {
    throw new UsageError("worktree mode captures live; drop the explicit fields");
  }
  if (v.audience !== undefined) throw new UsageError("--audience goes without worktree mode");
  const { worktreeHandshake } = await import("../worktree/handshake.ts");
  return await worktreeHandshake({
    dir: v.worktree,
    count,
    json: v.json ?? false,
    context: v.context ?? false,
    recent: v.recent ?? [],
    cwdStyle,
    issuedAt,
    prompt: wrap ? await readPrompt() : null,
  });
}

/** `--exact`'s capture: the v1 fields and the seed (its code loads only when asked for). */
async function exactCapture(): Promise<{ live: LiveTree; seed: string }> {
  const { captureExact } = await import("../handshake/v2/exact.ts");
  return await captureExact();
}

/** The shared tree: the v1 block (v2 with `--exact`), wrapped or alone, one or `--count`. */
async function sharedMode(v: Values, o: Options, wrap: boolean): Promise<number> {
  const { count, cwdStyle, audience, issuedAt } = o;
  const explicit = await explicitTree(v, wrap);
  if (v.exact && (explicit || audience === "public")) {
    throw new UsageError(
      "--exact captures the live tree into the block: no explicit fields, no public audience",
    );
  }
  const prompt = wrap ? await readPrompt() : null;

  // The working context, exact mode and the hook load their code only when asked for: a
  // plain handshake is every dispatch's cost. Settled at once: a capture that fails while
  // the tree is still being read must not be an unhandled rejection (which would end the
  // process before the error is reported).
  const contextSettled: Promise<{ ok: ContextResult | undefined } | { error: unknown }> = v.context
    ? import("../context/capture.ts").then(({ captureWorkingContext }) =>
      captureWorkingContext({ recent: v.recent ?? [], audience })
    ).then(
      (ok) => ({ ok }),
      (error) => ({ error }), // guard: capture failure handled
    )
    : Promise.resolve({ ok: undefined });
  const contextResult = async (): Promise<ContextResult | undefined> => {
    const r = await contextSettled;
    if ("error" in r) throw r.error;
    return r.ok;
  };
  // A public audience gets no path and no git state: the handshake block is left out too.
  const publicAudience = audience === "public";
  if (publicAudience && explicit) {
    throw new UsageError(
      "--audience public leaves the handshake block out; drop the explicit fields",
    );
  }
  let tree: TreeState | undefined;
  let context: ContextResult | undefined;
  let seed: string | undefined;
  const capture = v.exact
    ? () => exactCapture().then((exact) => (seed = exact.seed, exact.live))
    : () => captureLive({ seedSpelling: true });
  try {
    tree = publicAudience ? undefined : representable(explicit ?? await capture(), cwdStyle);
    context = await contextResult();
  } catch (error) {
    const reason = describe(error);
    if (wrap && !v.strict && prompt !== null) {
      // The seed: dispatch without the block. The working context, which needs no
      // commit and no repository, still goes in when it could be captured.
      const partial = await contextResult().catch(() => undefined);
      const head = contextPrefix(partial);
      err(`handshake: ${reason}; prompt passed through without a handshake block`);
      await out(
        v.json
          ? `${JSON.stringify(jsonDocument([], null, partial, [head + prompt.text]), null, 2)}\n`
          : prependTo(prompt, [head]),
      );
      return 0;
    }
    err(`error: ${reason}`);
    return EXIT_PARENT_FAILURE;
  }
  const handshakes: Handshake[] = tree === undefined ? [] : Array.from({ length: count }, () => ({
    ...tree,
    workspace_mode: "shared",
    handshake_issued_at: issuedAt ?? issuedAtNow(),
    ...(seed === undefined ? {} : { seed }),
  }));
  const blocks = handshakes.map((h) =>
    seed === undefined ? buildBlock(h) : buildV2Block({ ...h, seed })
  );
  const heads = publicAudience
    ? Array.from({ length: count }, () => "")
    : blocks.map((b) => `${b}\n`);
  await printShared(v.json ?? false, prompt, heads, blocks, handshakes[0] ?? null, context);
  return 0;
}

/** Print the shared tree's blocks: as JSON, in front of the prompt, or alone. */
async function printShared(
  json: boolean,
  prompt: DecodedPrompt | null,
  heads: string[],
  blocks: string[],
  first: Handshake | null,
  context: ContextResult | undefined,
): Promise<void> {
  const contextText = contextPrefix(context);
  if (json) {
    const wrapped = prompt === null
      ? null
      : heads.map((head) => `${head}${contextText}${prompt.text}`);
    await out(`${JSON.stringify(jsonDocument(blocks, first, context, wrapped), null, 2)}\n`);
  } else if (prompt) {
    await out(prependTo(prompt, heads.map((head) => `${head}${contextText}`)));
  } else {
    await out(heads.map((head) => `${head}${contextText}`.replace(/\n\n$/, "\n")).join("\n"));
  }
}

/** `handshake hook`: the options it shares with wrap, then the payload on stdin. */
async function hook(v: Values): Promise<number> {
  const refused = [
    "count",
    "json",
    "strict",
    "head",
    "branch",
    "cwd",
    "fingerprint",
    "exact",
  ] as const;
  for (const flag of refused) {
    if (v[flag] !== undefined) throw new UsageError(`--${flag} does not go with hook`);
  }
  if (v["porcelain-stdin"] || v["issued-at"] !== undefined) {
    throw new UsageError("explicit fields do not go with hook");
  }
  if (v.recent && !v.context) throw new UsageError("--recent goes with --context");
  if (v.audience !== undefined && !v.context) {
    throw new UsageError("--audience goes with --context");
  }
  const cwdStyle = choice("cwd-style", v["cwd-style"], ["native", "posix"] as const, "native");
  const audience = choice("audience", v.audience, ["private", "public"] as const, "private");
  const payload = await readPrompt();
  return await wrapSubagentCall(payload.text, {
    context: v.context ?? false,
    recent: v.recent ?? [],
    audience,
    cwdStyle,
  });
}

/**
 * Run the `PreToolUse` hook on a payload: a subagent call's prompt is printed wrapped
 * with the block (see `hook.ts`). `tether hook` calls this for shared-tree children.
 *
 * @param payload The payload's text.
 * @param options `--context`, `--recent`, `--audience` and `--cwd-style`.
 * @returns The exit code.
 */
export async function wrapSubagentCall(
  payload: string,
  options: {
    context: boolean;
    recent: string[];
    audience: "private" | "public";
    cwdStyle: "native" | "posix";
  },
): Promise<number> {
  const { runHook } = await import("../harness/claude/pretooluse.ts");
  return await runHook(payload, {
    context: options.context,
    recent: options.recent,
    audience: options.audience,
    fields: (tree) => representable(tree, options.cwdStyle),
    contextPrefix,
  }, describe);
}

async function readPrompt(): Promise<DecodedPrompt> {
  try {
    return decodePrompt(await readStdin());
  } catch (error) {
    if (error instanceof InputError) throw new UsageError(error.message);
    throw error;
  }
}
