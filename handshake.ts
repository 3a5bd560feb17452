/**
 * `handshake`: capture the parent's live tree into a v1 handshake block and prepend it to
 * a subagent's prompt. Runs with `--allow-run=git` only.
 *
 * @module
 */
import { runMain } from "./src/cli.ts";
import { EXIT_PARENT_FAILURE, handshakeMain } from "./src/commands/handshake.ts";

if (import.meta.main) {
  await runMain("handshake", () => handshakeMain(Deno.args), EXIT_PARENT_FAILURE);
}
