/**
 * The `coord` command line: parse a subcommand and its options into a request, run it,
 * and render the result. The entry point maps errors to exit codes.
 *
 * @module
 */
import { parseStrict } from "../_argv.ts";
import config from "../../deno.json" with { type: "json" };
import { UsageError } from "./errors.ts";
import { helpOrVersion, type Options, type ParsedCli } from "../cli.ts";
import {
  clip,
  isArtifactPath,
  parseLaneList,
  parseMessageId,
  parseSubject,
  parseWorkItem,
} from "./ids.ts";
import { MESSAGE_TYPES, type MessageType, type Provenance, PROVENANCES } from "./message.ts";
import { Session } from "./session.ts";
import { escapeLine, foldLine, jsonText } from "./terminal.ts";
import { send } from "./commands/send.ts";
import { handoff } from "./commands/handoff.ts";
import { inbox, renderInbox } from "./commands/inbox.ts";
import { read, renderRead } from "./commands/read.ts";
import { ack } from "./commands/ack.ts";
import { renderStatus, status } from "./commands/status.ts";
import { DEFAULT_TIMEOUT, wait } from "./commands/wait.ts";
import { parseDuration } from "../time.ts";

/** The tether version coord reports (from deno.json). */
export const COORD_VERSION: string = config.version;

/** The largest message body (1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Usage text for `coord --help`. */
export const HELP = `coord: durable, blind-aware, SHA-pinned messages between git worktrees

Usage:
  coord send    <WORK_ITEM> --to A[,B] [--cc C] [--type T] --subject S [--reply-to ID] [--forward ID] [--provenance P]   (body on stdin)
  coord handoff <WORK_ITEM> --to A --sha <full SHA|HEAD> --path P [--provenance P] --subject S   (body on stdin)
  coord inbox   <WORK_ITEM> [--unacked] [--json]
  coord read    <MSG_ID> [--json]
  coord ack     <MSG_ID> [--json]
  coord status  [<WORK_ITEM>] [--json]
  coord wait    <WORK_ITEM> [--timeout DURATION] [--json]

Your lane is the worktree you run in, as STATUS on the policy ref (refs/heads/main, or git
config coord.policyRef) declares it. Types: ${MESSAGE_TYPES.join(", ")}.
Provenance: ${PROVENANCES.join(", ")}.

wait blocks until a message you may see, addressed to you and not acknowledged by you, is
in the work item, and prints the ids (as inbox --unacked lists them); at once when one is
already there. DURATION: 500ms, 90s, 10m, 2h, 1d (default ${DEFAULT_TIMEOUT}; 0s checks once).

Output for a person keeps every line of a lane's text within 78 columns: body lines wrap
under "| ", long headers continue indented, inbox rows are cut with "…"; --json keeps the
exact text.

Options:
  -h, --help, help   this text (also after a command)
  -V, --version      the version

Exit codes: 0 ok, 2 usage error, 3 git, policy or store error (or a missing Deno
permission), 4 refused or not found, 5 wait timed out (nothing on stdout).
`;

/** What a command produced. */
export interface Output {
  /** Text for stdout. */
  stdout: string;
  /** Lines for stderr (warnings). */
  stderr: string[];
}

/** Where and how a command runs. */
export interface CliContext {
  /** The caller's directory. */
  cwd: string;
  /** Reads the message body (standard input). */
  readBody: () => Promise<string>;
}

const common = { json: { type: "boolean" }, help: { type: "boolean", short: "h" } } as const;

function parse<T extends Options>(args: string[], options: T): ParsedCli<typeof common & T> {
  try {
    const { values, positionals } = parseStrict(args, { ...common, ...options });
    return { values, positionals } as unknown as ParsedCli<typeof common & T>;
  } catch (error) {
    throw new UsageError(parserMessage(error instanceof Error ? error.message : String(error)));
  }
}

/**
 * Turn a `parseArgs` complaint into coord's error style: sentence case, the option quoted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(parserMessage("Unknown option '--as'. To specify a positional argument …"), 'Unknown option: "--as"');
 * assertEquals(parserMessage("Option '--to <value>' argument missing"), 'Missing value for "--to"');
 * ```
 * @param text What the parser said.
 * @returns One line without a trailing period.
 */
export function parserMessage(text: string): string {
  const option = /'(-[^' ]+)/.exec(text)?.[1];
  if (option && /^Unknown option/.test(text)) return `Unknown option: "${option}"`;
  if (option && /argument missing/.test(text)) return `Missing value for "${option}"`;
  if (option && /does not take an argument/.test(text)) return `Option "${option}" takes no value`;
  if (option && /ambiguous/.test(text)) {
    return `Option "${option}" needs a value (it may not start with "-")`;
  }
  return (text.split("\n")[0] ?? "").replace(/\.$/, "");
}

const VALUE_OPTIONS = [
  "--to",
  "--cc",
  "--type",
  "--subject",
  "--reply-to",
  "--forward",
  "--provenance",
  "--sha",
  "--path",
];

/**
 * Refuse an argument that was not UTF-8. The runtime hands arguments over with every
 * invalid byte sequence replaced by U+FFFD, so a U+FFFD in an argument is refused as well:
 * nothing a caller typed is stored other than as typed (the body is checked the same way).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * checkArgumentsText(["send", "E001", "--subject", "plain"]);
 * let error = "";
 * try {
 *   checkArgumentsText(["send", "E001", "--subject", "bad \uFFFD"]);
 * } catch (e) {
 *   error = (e as Error).message;
 * }
 * assertEquals(error, "Invalid --subject: not UTF-8 (invalid bytes arrive as U+FFFD; either is refused)");
 * ```
 * @param args The arguments after `coord`.
 * @throws {UsageError} naming the option whose value is not UTF-8.
 */
export function checkArgumentsText(args: readonly string[]): void {
  args.forEach((arg, i) => {
    if (!arg.includes("\uFFFD")) return;
    const eq = arg.indexOf("=");
    const option = arg.startsWith("--") && eq > 0
      ? arg.slice(0, eq)
      : VALUE_OPTIONS.includes(args[i - 1] ?? "")
      ? args[i - 1]
      : undefined;
    const why = "not UTF-8 (invalid bytes arrive as U+FFFD; either is refused)";
    throw new UsageError(
      option === undefined ? `Argument "${clip(arg)}" is ${why}` : `Invalid ${option}: ${why}`,
    );
  });
}

function single(positionals: string[], what: string, optional = false): string | undefined {
  if (positionals.length > 1) {
    throw new UsageError(`Unexpected argument: "${clip(positionals[1] ?? "")}"`);
  }
  if (positionals.length === 0 && !optional) throw new UsageError(`Missing ${what}`);
  return positionals[0];
}

function enumValue<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  what: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`Unknown ${what}: "${clip(value)}" (one of ${allowed.join(", ")})`);
  }
  return value as T;
}

function requireValues(values: string[] | undefined, option: string): string[] {
  if (!values || values.length === 0) throw new UsageError(`Missing ${option}`);
  return values;
}

/** An output of stdout text and stderr lines. */
function out(stdout: string, stderr: string[] = []): Output {
  return { stdout, stderr };
}

const json = jsonText;

/** `coord send`. */
async function sendCommand(rest: string[], context: CliContext): Promise<Output> {
  const { values, positionals } = parse(rest, {
    to: { type: "string", multiple: true },
    cc: { type: "string", multiple: true },
    type: { type: "string" },
    subject: { type: "string" },
    "reply-to": { type: "string" },
    forward: { type: "string" },
    provenance: { type: "string" },
  });
  if (values.help) return out(HELP);
  const workItem = parseWorkItem(single(positionals, "work item id"));
  const request = {
    workItem,
    to: parseLaneList(requireValues(values.to, "--to")),
    cc: parseLaneList(values.cc ?? []),
    type: enumValue<MessageType>(values.type, MESSAGE_TYPES, "type") ?? "NOTE",
    subject: parseSubject(values.subject),
    replyTo: values["reply-to"] === undefined ? undefined : parseMessageId(values["reply-to"]),
    forward: values.forward === undefined ? undefined : parseMessageId(values.forward),
    provenance: enumValue<Provenance>(values.provenance, PROVENANCES, "provenance") ?? null,
  };
  const body = await context.readBody();
  const session = await Session.open(context.cwd);
  const message = await send(session, { ...request, body });
  return out(values.json ? json(message) : `${message.id}\n`);
}

/** `coord handoff`. */
async function handoffCommand(rest: string[], context: CliContext): Promise<Output> {
  const { values, positionals } = parse(rest, {
    to: { type: "string", multiple: true },
    sha: { type: "string" },
    path: { type: "string" },
    subject: { type: "string" },
    provenance: { type: "string" },
  });
  if (values.help) return out(HELP);
  const workItem = parseWorkItem(single(positionals, "work item id"));
  if (values.sha === undefined) {
    throw new UsageError("Missing --sha (a full commit id, or HEAD)");
  }
  if (values.path === undefined) throw new UsageError("Missing --path");
  if (!isArtifactPath(values.path)) {
    throw new UsageError(
      `Invalid --path: "${clip(values.path)}" (relative, no "." or ".." segments)`,
    );
  }
  const request = {
    workItem,
    to: parseLaneList(requireValues(values.to, "--to")),
    sha: values.sha,
    path: values.path,
    subject: parseSubject(values.subject),
    provenance: enumValue<Provenance>(values.provenance, PROVENANCES, "provenance") ??
      "CLAIMED",
  };
  const body = await context.readBody();
  const session = await Session.open(context.cwd);
  const message = await handoff(session, { ...request, body });
  return out(values.json ? json(message) : `${message.id}\n`);
}

/** `coord inbox`. */
async function inboxCommand(rest: string[], context: CliContext): Promise<Output> {
  const { values, positionals } = parse(rest, { unacked: { type: "boolean" } });
  if (values.help) return out(HELP);
  const workItem = parseWorkItem(single(positionals, "work item id"));
  const session = await Session.open(context.cwd);
  const result = await inbox(session, workItem, values.unacked === true);
  const warnings = result.corrupt.map((c) =>
    foldLine(`warning: ${c.id} is corrupt: ${escapeLine(c.reason)}`)
  );
  if (values.json) return out(json(result), warnings);
  if (result.messages.length === 0) {
    warnings.push(`no visible messages in ${workItem} for ${result.lane}`);
  }
  return out(renderInbox(result), warnings);
}

/** `coord read`. */
async function readCommand(rest: string[], context: CliContext): Promise<Output> {
  const { values, positionals } = parse(rest, {});
  if (values.help) return out(HELP);
  const id = parseMessageId(single(positionals, "message id"));
  const session = await Session.open(context.cwd);
  const result = await read(session, id);
  return out(values.json ? json(result) : renderRead(result));
}

/** `coord ack`. */
async function ackCommand(rest: string[], context: CliContext): Promise<Output> {
  const { values, positionals } = parse(rest, {});
  if (values.help) return out(HELP);
  const id = parseMessageId(single(positionals, "message id"));
  const session = await Session.open(context.cwd);
  const written = await ack(session, id);
  const text = `${
    foldLine(
      `${positionals[0]} ${
        written ? "acknowledged" : "was already acknowledged"
      } by ${session.lane}`,
    )
  }\n`;
  return out(
    values.json ? json({ id: positionals[0], lane: session.lane, new: written }) : text,
  );
}

/** `coord status`. */
async function statusCommand(rest: string[], context: CliContext): Promise<Output> {
  const { values, positionals } = parse(rest, {});
  if (values.help) return out(HELP);
  const raw = single(positionals, "work item id", true);
  const workItem = raw === undefined ? undefined : parseWorkItem(raw);
  const session = await Session.open(context.cwd);
  const report = await status(session, workItem);
  return out(values.json ? json(report) : renderStatus(report));
}

/** `coord wait`. */
async function waitCommand(rest: string[], context: CliContext): Promise<Output> {
  const { values, positionals } = parse(rest, { timeout: { type: "string" } });
  if (values.help) return out(HELP);
  const workItem = parseWorkItem(single(positionals, "work item id"));
  const timeout = values.timeout ?? DEFAULT_TIMEOUT;
  const timeoutMs = parseDuration(timeout);
  if (timeoutMs === undefined) {
    throw new UsageError(
      `--timeout must be a duration like 500ms, 90s, 10m, 2h or 1d: "${clip(timeout)}"`,
    );
  }
  const result = await wait(context.cwd, workItem, timeoutMs, timeout);
  return out(values.json ? json(result) : result.ids.map((id) => `${id}\n`).join(""));
}

/** Each coord command by name. */
const COMMANDS: Record<string, (rest: string[], context: CliContext) => Promise<Output>> = {
  send: sendCommand,
  handoff: handoffCommand,
  inbox: inboxCommand,
  read: readCommand,
  ack: ackCommand,
  status: statusCommand,
  wait: waitCommand,
};

/**
 * Run one coord command line.
 *
 * @param args The arguments after `coord`.
 * @param context The caller's directory and standard input.
 * @returns What to print.
 * @throws {UsageError | RefusedError | PolicyError | StoreError | GitError} for the entry point to map.
 */
export async function runCoord(args: string[], context: CliContext): Promise<Output> {
  checkArgumentsText(args);
  const [command, ...rest] = args;
  if (command === undefined) {
    throw new UsageError("Missing command (send, handoff, inbox, read, ack, status, wait)");
  }
  const asked = helpOrVersion(args);
  if (asked === "help") return out(HELP);
  if (asked === "version") return out(`coord ${COORD_VERSION}\n`);
  const run = COMMANDS[command];
  if (run === undefined) {
    throw new UsageError(
      `Unknown command: "${clip(command)}" (send, handoff, inbox, read, ack, status, wait)`,
    );
  }
  return await run(rest, context);
}
