/**
 * `gate`: the evidence gate on a subagent's return. Reads the child's SubagentResult on
 * stdin, checks it against the tree and the spawn snapshot, prints a verdict. Runs with
 * `--allow-run=git` only.
 *
 * @module
 */
import { runMain } from "./src/cli.ts";
import { EXIT_CANNOT_EVALUATE, gateMain } from "./src/gate/command.ts";

if (import.meta.main) {
  await runMain("gate", () => gateMain(Deno.args), EXIT_CANNOT_EVALUATE);
}
