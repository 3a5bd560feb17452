/**
 * `verify`: a subagent's Step 0. Compares the dispatch prompt's handshake block with the
 * live tree and takes the match / mismatch / error / missing path. Runs with
 * `--allow-run=git` only.
 *
 * @module
 */
import { runMain } from "./src/cli.ts";
import { verifyMain } from "./src/verify_command.ts";

if (import.meta.main) await runMain("verify", () => verifyMain(Deno.args), 3);
