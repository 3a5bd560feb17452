/**
 * The `gate` command: arguments, standard input, output and exit codes. The verdict
 * itself is {@linkcode evaluate}'s.
 *
 * @module
 */
import { err, out } from "../cli.ts";
import {
  EXIT_ACCEPT,
  EXIT_CANNOT_EVALUATE,
  EXIT_REJECT,
  type GateArgs,
  gateArgs,
  readResultText,
} from "../gate/args.ts";
import { evaluate } from "../gate/evaluate.ts";
import type { GateReport } from "../gate/verdict.ts";
import { parseResultText } from "../gate/result.ts";
import { GateError } from "../gate/repo.ts";
import { oneLine, renderReport } from "../gate/render.ts";

export {
  EXIT_ACCEPT,
  EXIT_CANNOT_EVALUATE,
  EXIT_REJECT,
  HELP,
  MAX_RESULT_BYTES,
} from "../gate/args.ts";

/** Parse the result text read from stdin; JSON that is not a result becomes a problem. */
function parseResult(
  read: { text: string } | { problem: string },
): { text: string } | { problem: string } {
  if ("problem" in read) return read;
  const parsed = parseResultText(read.text);
  return "problem" in parsed ? parsed : read;
}

/**
 * Run `gate` with its arguments: check them, read the result on stdin to its end, then
 * judge it.
 *
 * @param args Command-line arguments.
 * @returns The exit code.
 * @throws {UsageError} on a bad option or value.
 */
export async function gateMain(args: string[]): Promise<number> {
  const parsed = await gateArgs(args);
  if (typeof parsed === "number") return parsed;
  return gateRun(parsed, await readResultText());
}

/**
 * Judge a result already read, under checked arguments (see {@linkcode gateArgs}).
 *
 * @param values The checked arguments.
 * @param read The result text read from stdin, or the problem reading it.
 * @returns The exit code.
 */
export async function gateRun(
  values: GateArgs,
  read: { text: string } | { problem: string },
): Promise<number> {
  const since = values.since;
  const input = parseResult(read);
  if (values.worktree !== undefined && "text" in input) {
    const { worktreeGate, renderWorktree } = await import("../worktree/gate.ts");
    try {
      const report = await worktreeGate(input.text, {
        dir: values.worktree,
        seed: values.seed ?? "",
        land: values.land,
        keep: values.keep,
        ...(values.landed === undefined ? {} : { landed: values.landed }),
        acceptUnverified: values.acceptUnverified,
      });
      const { warnings, ...printed } = report;
      await out(
        values.json
          ? JSON.stringify(printed, null, 2) + "\n"
          : renderReport(printed) + renderWorktree(printed),
      );
      // A warning or an error may quote what git or the child's tree said: one line each.
      for (const warning of warnings ?? []) err(`warning: ${oneLine(warning)}`);
      if (report.land?.status === "landed" && report.land.not_anchored !== undefined) {
        err(
          `warning: ${
            oneLine(
              `after the land, tether could not anchor its record (${report.land.not_anchored}): git gc may prune it before the next land, which then cannot use it`,
            )
          }`,
        );
      }
      const left = report.land?.status === "conflict" || report.land?.status === "refused"
        ? undefined
        : report.land?.not_removed;
      if (left !== undefined) {
        err(`warning: ${oneLine(`after the land, tether could not remove: ${left.join("; ")}`)}`);
      }
      return report.verdict === "accept" && report.land?.status !== "conflict" &&
          report.land?.status !== "refused"
        ? EXIT_ACCEPT
        : EXIT_REJECT;
    } catch (error) {
      if (!(error instanceof GateError)) throw error;
      err(`error: ${oneLine(error.message)}`);
      return EXIT_CANNOT_EVALUATE;
    }
  }
  let report: GateReport;
  try {
    report = "text" in input
      ? await evaluate(input.text, {
        ...(since === undefined ? {} : { since }),
        acceptUnverified: values.acceptUnverified,
        done: values.done,
      })
      : { verdict: "reject", reasons: [input.problem], evidence: [], recent_files: [] };
  } catch (error) {
    if (error instanceof GateError) {
      err(`error: ${error.message}`);
      return EXIT_CANNOT_EVALUATE;
    }
    throw error;
  }
  if ("problem" in input) err(`error: ${input.problem}`);
  const { warnings, ...printed } = report;
  await out(values.json ? JSON.stringify(printed, null, 2) + "\n" : renderReport(printed));
  for (const warning of warnings ?? []) err(`warning: ${warning}`);
  return report.verdict === "accept" ? EXIT_ACCEPT : EXIT_REJECT;
}
