/**
 * `tether`: the Claude Code hooks (`tether hook`) that ground every subagent, isolate it
 * in a worktree holding the parent's exact state, gate its return and land its work.
 * Runs with `--allow-run=git` only.
 *
 * @module
 */
import { runMain } from "./src/cli.ts";
import { tetherMain } from "./src/commands/tether.ts";

if (import.meta.main) {
  await runMain("tether", () => tetherMain(Deno.args), 1);
}
