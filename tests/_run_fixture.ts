/**
 * A test module for tests/test_runner_test.ts: makes a temp dir under the run's `$TMPDIR`,
 * then does what `TETHER_FIXTURE` says: `leak` (ends, leaving the dir), `hang` (writes
 * `ready` to `TETHER_FIXTURE_READY` and waits to be interrupted), `cache` (runs a module
 * written there, checks that Deno cached it in its own cache dir, writes where to
 * `TETHER_FIXTURE_READY` and removes the dir), `attr` (writes the run dir's `lsattr -d` line
 * to `TETHER_FIXTURE_READY` and removes the dir) or `pass` (removes it).
 */
Deno.test("fixture: a test that makes a temp dir", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tether-fixture-" });
  const mode = Deno.env.get("TETHER_FIXTURE");
  if (mode === "hang") {
    await Deno.writeTextFile(Deno.env.get("TETHER_FIXTURE_READY")!, "ready");
    await new Promise((resolve) => setTimeout(resolve, 60_000));
  }
  if (mode === "cache") await runCached(dir, Deno.env.get("TETHER_FIXTURE_READY")!);
  if (mode === "attr") {
    const attrs = await new Deno.Command("lsattr", { args: ["-d", Deno.env.get("TMPDIR")!] })
      .output();
    await Deno.writeFile(Deno.env.get("TETHER_FIXTURE_READY")!, attrs.stdout);
  }
  if (mode !== "leak") await Deno.remove(dir, { recursive: true });
});

/** Run a module written in `dir` and write where Deno cached its transpiled text to `report`. */
async function runCached(dir: string, report: string): Promise<void> {
  await Deno.writeTextFile(`${dir}/typed.ts`, "const n: number = 1;\nconsole.log(n);\n");
  const ran = await new Deno.Command(Deno.execPath(), { args: ["run", `${dir}/typed.ts`] })
    .output();
  if (ran.code !== 0) throw new Error("the module did not run");
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  const gen = JSON.parse(new TextDecoder().decode(info.stdout)).typescriptCache as string;
  const cached = `${gen}/file${dir}`;
  await Deno.stat(cached); // throws when Deno cached it elsewhere: the test would prove nothing
  await Deno.writeTextFile(report, cached);
}
