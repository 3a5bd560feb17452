/**
 * A test module for tests/test_runner_test.ts: makes a temp dir under the run's `$TMPDIR`,
 * then does what `TETHER_FIXTURE` says: `leak` (ends, leaving the dir), `hang` (writes
 * `ready` to `TETHER_FIXTURE_READY` and waits to be interrupted) or `pass` (removes it).
 */
Deno.test("fixture: a test that makes a temp dir", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tether-fixture-" });
  const mode = Deno.env.get("TETHER_FIXTURE");
  if (mode === "hang") {
    await Deno.writeTextFile(Deno.env.get("TETHER_FIXTURE_READY")!, "ready");
    await new Promise((resolve) => setTimeout(resolve, 60_000));
  }
  if (mode !== "leak") await Deno.remove(dir, { recursive: true });
});
