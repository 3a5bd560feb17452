/**
 * `gate`: the evidence gate on a subagent's return. Reads the child's SubagentResult on
 * stdin, checks it against the tree and the spawn snapshot, prints a verdict. Runs with
 * `--allow-run=git` only.
 *
 * @module
 */
import { runMain } from "./src/cli.ts";
import { EXIT_CANNOT_EVALUATE, gateArgs, readResultText } from "./src/gate/args.ts";
import { gateStarted, prestartGate } from "./src/gate/early.ts";

if (import.meta.main) {
  await runMain("gate", async () => {
    // The command line is checked and the result read to its end before git runs: a usage
    // error runs no git, and a child writing its result on a pipe is done before gate
    // looks at the tree. Then `gate --since` starts its git reads, and zod and the
    // contracts load once they have started.
    const parsed = await gateArgs(Deno.args);
    if (typeof parsed === "number") return parsed;
    const read = await readResultText(); // tether:guard gate3-tree-after-result
    if (parsed.since !== undefined && parsed.worktree === undefined) prestartGate(parsed.since);
    await gateStarted(); // the early reads have started: zod and the contracts load beside them
    const { gateRun } = await import("./src/commands/gate.ts");
    return await gateRun(parsed, read);
  }, EXIT_CANNOT_EVALUATE);
}
