/**
 * `verify`: a subagent's Step 0. Compares the dispatch prompt's handshake block with the
 * live tree and takes the match / mismatch / error / missing path. Runs with
 * `--allow-run=git` only.
 *
 * @module
 */
import { prestartCapture, settleCapture } from "./src/handshake/capture.ts";

if (import.meta.main) {
  // `git status` is the slow part: start it before loading the rest and reading stdin, and
  // leave the first git answers it waits for nothing else to wait behind. Not for help.
  if (!["-h", "--help", "help", "-V", "--version"].includes(Deno.args[0] ?? "")) {
    await prestartCapture();
  }
  const { runMain } = await import("./src/cli.ts");
  const { verifyMain } = await import("./src/commands/verify.ts");
  await runMain("verify", async () => {
    try {
      return await verifyMain(Deno.args);
    } finally {
      await settleCapture(); // no git this process started outlives it
    }
  }, 3);
}
