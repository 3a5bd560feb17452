/**
 * The `verify` binary's work: read the block (from stdin or flags), verify it against the
 * live tree, print the path's text and return its exit code.
 *
 * @module
 */
import { normalisePrompt, type ParseResult } from "../handshake/block.ts";
import {
  FIELD_NAMES,
  type FieldName,
  type Handshake,
  normaliseField,
  validateField,
} from "../handshake/fields.ts";
import { divergenceFinding, unverifiedText, verifiedLine } from "../handshake/finding.ts";
import { type Verdict, verifyLive, type VerifyStatus } from "../handshake/verification.ts";
import { type DecodedPrompt, decodePrompt } from "../encoding.ts";
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
import { parseDuration } from "../time.ts";
import { type AnyParseResult, parseHandshake } from "../handshake/v2/block.ts";
import type { ExactVerdict } from "../handshake/v2/exact.ts";

/** Exit code of each path. */
export const VERIFY_EXIT: Readonly<Record<VerifyStatus, number>> = {
  match: 0,
  mismatch: 1,
  error: 3,
  missing: 4,
};

/** The `--help` text. */
export const VERIFY_HELP =
  `verify ${VERSION}: Step 0 — compare the dispatch prompt's handshake with the live tree

Usage:
  verify [options] < prompt.md
  verify [options] <<'HANDSHAKE'     (the block inline: nothing written into the tree)
  <the handshake block>
  HANDSHAKE
  verify --head SHA --branch NAME --cwd PATH --fingerprint HEX12 [--workspace-mode shared] [--issued-at TIME]
  verify --head ... --fingerprint HEX12 --seed ID [--workspace-mode worktree --worktree-path DIR
         --worktree-branch NAME --worktree-cwd DIR]        (a v2 block as flags: one plain command)

The first handshake block in the prompt is the handshake; later blocks are task content.

Options:
  --json               one JSON document: { status, tag, expected, observed, diverged, reason }
  --max-age DURATION   a block older than this (90s, 10m, 2h, 1d) takes the error path
  -h, --help, help     this text
  -V, --version        the version

The prompt may be UTF-8 or UTF-16 (with or without a BOM), with CRLF line ends. One that
cannot be decoded takes the error path, never the missing path.
Reads v1 and v2 blocks; a v2 block in worktree mode matches only in the worktree it names
(or, written by handshake --workspace-mode worktree, a linked worktree of the parent's
repository) holding the seed's exact state (docs/worktree.md).

Paths and exit codes:
  0 match      environment-verified: <head> on <branch>
  1 mismatch   the environment-divergence finding; halt role work
  3 error      environment-unverified: <reason>; tag tree-grounded findings
  4 missing    environment-unverified: no handshake; tag tree-grounded findings
  2 usage error
`;

const OPTIONS = {
  json: { type: "boolean" },
  "max-age": { type: "string" },
  head: { type: "string" },
  branch: { type: "string" },
  cwd: { type: "string" },
  fingerprint: { type: "string" },
  "workspace-mode": { type: "string" },
  "issued-at": { type: "string" },
  seed: { type: "string" },
  "worktree-path": { type: "string" },
  "worktree-branch": { type: "string" },
  "worktree-cwd": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const;

type Values = ParsedCli<typeof OPTIONS>["values"];

/**
 * A v2 block written from flags (`--seed` and, in worktree mode, the three worktree
 * fields), so that a child whose shell refuses a heredoc can still pass its block in one
 * plain command. It is parsed like any block, so a bad value takes the error path.
 */
function v2FromFlags(v: Values): DecodedPrompt {
  const mode = v["workspace-mode"] ?? "shared";
  const worktree = [v["worktree-path"], v["worktree-branch"], v["worktree-cwd"]];
  if ([v.head, v.branch, v.cwd, v.fingerprint].some((x) => x === undefined)) {
    throw new UsageError("--seed needs --head, --branch, --cwd and --fingerprint");
  }
  if (mode === "worktree" ? worktree.some((x) => x === undefined) : worktree.some(Boolean)) {
    throw new UsageError(
      "--worktree-path, --worktree-branch and --worktree-cwd go together, with --workspace-mode worktree",
    );
  }
  const lines = [
    "<!-- subagent-env-handshake v2 -->",
    "",
    `parent_head: ${v.head}`,
    `parent_branch: ${v.branch}`,
    `parent_cwd: ${v.cwd}`,
    `parent_dirty_fingerprint: ${v.fingerprint}`,
    `workspace_mode: ${mode}`,
    `handshake_issued_at: ${v["issued-at"] ?? new Date().toISOString()}`,
    `seed: ${v.seed}`,
    ...(mode === "worktree"
      ? [
        `worktree_path: ${v["worktree-path"]}`,
        `worktree_branch: ${v["worktree-branch"]}`,
        `worktree_cwd: ${v["worktree-cwd"]}`,
      ]
      : []),
    "",
    "<!-- /subagent-env-handshake -->",
    "",
  ];
  // A value holding a line break would add a field: it is refused as one.
  const values = [v.head, v.branch, v.cwd, v.fingerprint, v.seed, ...worktree];
  if (values.some((x) => x !== undefined && /[\r\n]/.test(x))) {
    throw new UsageError("a field flag's value holds a line break");
  }
  const text = lines.join("\n");
  const body = new TextEncoder().encode(text);
  return { encoding: "utf-8", bom: new Uint8Array(), body, text, valid: true };
}

function fromFlags(v: Values): ParseResult | undefined {
  if (v.seed !== undefined) return undefined;
  const flags: Record<FieldName, string | undefined> = {
    parent_head: v.head,
    parent_branch: v.branch,
    parent_cwd: v.cwd,
    parent_dirty_fingerprint: v.fingerprint,
    workspace_mode: v["workspace-mode"] ?? "shared",
    handshake_issued_at: v["issued-at"] ?? new Date().toISOString(),
  };
  if ([v.head, v.branch, v.cwd, v.fingerprint].every((x) => x === undefined)) return undefined;
  if ([v.head, v.branch, v.cwd, v.fingerprint].some((x) => x === undefined)) {
    throw new UsageError("field flags need --head, --branch, --cwd and --fingerprint together");
  }
  const handshake = {} as Record<FieldName, string>;
  for (const name of FIELD_NAMES) {
    const reason = validateField(name, flags[name]!);
    if (reason) return { kind: "error", reason };
    handshake[name] = normaliseField(name, flags[name]!);
  }
  return { kind: "block", handshake: handshake as unknown as Handshake };
}

/**
 * Find the block in a decoded prompt. Bytes that do not decode never make the missing
 * path: with no block found the prompt could not be read (error path), and a block whose
 * values hold an undecodable sequence is unparseable; a readable block in front of task
 * text in another encoding (a Latin-1 prompt wrapped as it was) is read as usual.
 *
 * @example A Latin-1 prompt without a block is not "no handshake"
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * import { decodePrompt } from "../encoding.ts";
 * assertEquals(parsePrompt(decodePrompt(new Uint8Array([0x63, 0xe9]))).kind, "error");
 * assertEquals(parsePrompt(decodePrompt(new TextEncoder().encode("task"))).kind, "missing");
 * ```
 * @param decoded The prompt as {@linkcode decodePrompt} read it.
 * @returns What parsing found.
 */
export function parsePrompt(decoded: DecodedPrompt): AnyParseResult {
  const parsed = parseHandshake(normalisePrompt(decoded.text));
  if (decoded.valid) return parsed;
  const what = decoded.encoding === "utf-8"
    ? "UTF-8 (or UTF-16 with a byte order mark)"
    : decoded.encoding.toUpperCase();
  if (parsed.kind === "missing") {
    return { kind: "error", reason: `the prompt cannot be read: it is not valid ${what}` };
  }
  if (
    (parsed.kind === "block" || parsed.kind === "v2") &&
    Object.values(parsed.handshake).some((x) => typeof x === "string" && x.includes("\uFFFD"))
  ) {
    return { kind: "error", reason: `the handshake block is not valid ${what}` };
  }
  return parsed;
}

/**
 * Render a verdict as the human text of its path.
 *
 * @param verdict What verification decided.
 * @returns The text for stdout.
 */
export function renderVerdict(verdict: Verdict): string {
  switch (verdict.status) {
    case "match":
      return verifiedLine(verdict.observed!.parent_head, verdict.observed!.parent_branch);
    case "mismatch":
      return divergenceFinding(verdict.expected!, verdict.observed!, verdict.diverged);
    default:
      return unverifiedText(verdict.reason ?? "unknown");
  }
}

/**
 * Run `verify` with its arguments.
 *
 * @param args Command-line arguments.
 * @returns The exit code of the path taken.
 * @throws {UsageError} for bad arguments.
 */
export async function verifyMain(args: string[]): Promise<number> {
  const asked = helpOrVersion(args);
  const { values: v, positionals } = parseCli(asked ? [] : args, OPTIONS);
  if (v.help || asked === "help") return await out(VERIFY_HELP), 0;
  if (v.version || asked === "version") return await out(`verify ${VERSION}\n`), 0;
  if (positionals.length > 0) {
    throw new UsageError(`Unexpected argument: ${JSON.stringify(positionals[0])}`);
  }
  const maxAgeMs = v["max-age"] === undefined ? undefined : parseDuration(v["max-age"]);
  if (v["max-age"] !== undefined && maxAgeMs === undefined) {
    throw new UsageError(
      `--max-age must be a duration like 90s, 10m, 2h or 1d: ${JSON.stringify(v["max-age"])}`,
    );
  }
  let parsed: AnyParseResult | undefined = fromFlags(v);
  if (!parsed) {
    let decoded: DecodedPrompt | undefined;
    try {
      decoded = v.seed !== undefined ? v2FromFlags(v) : decodePrompt(await readStdin());
      parsed = parsePrompt(decoded);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      parsed = { kind: "error", reason: error.message };
    }
    if (parsed.kind !== "missing" && parsed.ignored) {
      err(
        `verify: ${parsed.ignored} later handshake block${
          parsed.ignored === 1 ? "" : "s"
        } ignored: the first block is the handshake, later ones are task content`,
      );
    }
    if (decoded && parsed.kind === "v2" && parsed.handshake.workspace_mode === "worktree") {
      const { verifyV2 } = await import("../worktree/verify.ts");
      const result = await verifyV2(normalisePrompt(decoded.text), {
        json: v.json ?? false,
        ...(maxAgeMs === undefined ? {} : { maxAgeMs }),
      });
      await out(result.text);
      return result.code;
    }
  }
  const options = maxAgeMs === undefined ? {} : { maxAgeMs };
  let verdict: Verdict | ExactVerdict;
  try {
    // Exact mode's seed code loads only for a v2 block: a v1 Step 0 never pays for it.
    verdict = parsed.kind === "v2"
      ? await (await import("../handshake/v2/exact.ts")).verifyExact(parsed.handshake, options)
      : await verifyLive(parsed, options);
  } catch (error) {
    if (!isPermissionError(error)) throw error;
    const reason = permissionMessage("verify", error);
    err(`error: ${reason}`);
    verdict = {
      status: "error",
      tag: "environment-unverified",
      expected: null,
      observed: null,
      diverged: [],
      reason,
    };
  }
  const text = "version" in verdict
    ? (await import("../handshake/v2/render.ts")).renderExactVerdict(verdict)
    : renderVerdict(verdict);
  await out(v.json ? `${JSON.stringify(verdict, null, 2)}\n` : text);
  return VERIFY_EXIT[verdict.status];
}
