/**
 * `gate`: the evidence gate on a subagent's return. Reads the child's SubagentResult on
 * stdin, checks it against the tree and the spawn snapshot, prints a verdict. Runs with
 * `--allow-run=git` only.
 *
 * @module
 */
import { prestartGate } from "./src/gate/early.ts";

if (import.meta.main) {
  // `gate --since`: git status and the snapshot read are the slow part; start them before
  // loading zod and the contracts and reading stdin.
  prestartGate(Deno.args);
  const { runMain } = await import("./src/cli.ts");
  const { EXIT_CANNOT_EVALUATE, gateMain } = await import("./src/gate/command.ts");
  await runMain("gate", () => gateMain(Deno.args), EXIT_CANNOT_EVALUATE);
}
