/**
 * `deno task test` runs the suite in a temp dir of its own (scripts/test.ts) and leaves
 * nothing in the system's temp dir: not when a test forgets a dir, not when the run is
 * interrupted, and not for long when the runner is killed outright (the next run removes
 * what it left). Each case runs the real runner on a small fixture module, with a `$TMPDIR`
 * of its own standing in for the system's.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertMatch } from "../src/_assert.ts";
import { ROOT } from "./_helpers.ts";

const FIXTURE = join(ROOT, "tests/_run_fixture.ts");

/** The runner on the fixture, under `base` as the system's temp dir. */
function runner(base: string, mode: string, ready = "") {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", join(ROOT, "scripts/test.ts"), "--allow-all", FIXTURE],
    env: { TMPDIR: base, NO_COLOR: "1", TETHER_FIXTURE: mode, TETHER_FIXTURE_READY: ready },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/** Wait until the fixture says it is inside its test. */
async function untilReady(file: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await Deno.readTextFile(file).then(() => true, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the fixture never started its test");
}

async function withBase(body: (base: string) => Promise<void>): Promise<void> {
  const base = await Deno.makeTempDir({ prefix: "tether-runbase-" });
  try {
    await body(base);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

Deno.test("a test run that leaves a temp dir behind fails, names it and still removes it", async () => {
  await withBase(async (base) => {
    const out = await runner(base, "leak").output();
    const stdout = new TextDecoder().decode(out.stdout);
    assertEquals(out.code, 1, stdout);
    assertIncludes(stdout, "1 passed");
    assertMatch(stdout, /the suite left 1 entries in its temp dir: tether-fixture-\S+/);
    assertEquals(await entries(base), []);
  });
});

Deno.test("a test run that passes and cleans up exits 0 and leaves nothing", async () => {
  await withBase(async (base) => {
    const out = await runner(base, "pass").output();
    assertEquals(out.code, 0, new TextDecoder().decode(out.stdout));
    assertEquals(await entries(base), []);
  });
});

Deno.test("a test run takes out of Deno's cache what Deno cached for modules in its temp dir", async () => {
  if (Deno.build.os === "windows") return; // the runner leaves the cache alone there
  await withBase(async (base) => {
    const report = join(base, "cached");
    const out = await runner(base, "cache", report).output();
    assertEquals(out.code, 0, new TextDecoder().decode(out.stdout));
    const cached = await Deno.readTextFile(report);
    assertMatch(cached, /\/file\/.*tether-run-/);
    assertEquals(await Deno.stat(cached).then(() => "still there", () => "gone"), "gone");
    await Deno.remove(report);
  });
});

Deno.test("a test run marks its temp dir as the top of a directory hierarchy where the filesystem can", async () => {
  await withBase(async (base) => {
    // Where chattr or the mark is missing (not Linux, not ext4), the runner cannot set it.
    const probe = await Deno.makeTempDir({ dir: base });
    const marked = await new Deno.Command("chattr", { args: ["+T", probe], stderr: "null" })
      .output().then((r) => r.success, () => false);
    await Deno.remove(probe);
    if (!marked) return;
    const report = join(base, "attrs");
    const out = await runner(base, "attr", report).output();
    assertEquals(out.code, 0, new TextDecoder().decode(out.stdout));
    const [flags, dir] = (await Deno.readTextFile(report)).trim().split(/\s+/);
    assertMatch(dir ?? "", /tether-run-/);
    assertIncludes(flags ?? "", "T");
    await Deno.remove(report);
  });
});

Deno.test("an interrupted test run leaves nothing in the temp dir", async () => {
  await withBase(async (base) => {
    const ready = join(base, "..", `${base.split("/").pop()}.ready`);
    const child = runner(base, "hang", ready);
    try {
      await untilReady(ready);
      child.kill("SIGINT");
      const out = await child.output();
      assertEquals(out.success, false);
      assertEquals(await entries(base), []);
    } finally {
      await Deno.remove(ready).catch(() => {});
    }
  });
});

Deno.test("the next test run removes what a killed run left once its suite has ended too, and nothing else", async () => {
  await withBase(async (base) => {
    const ready = join(base, "..", `${base.split("/").pop()}.ready`);
    const other = await Deno.makeTempDir({ dir: base, prefix: "tether-run-" }); // a live run's
    await Deno.writeTextFile(join(other, ".owner"), `${Deno.pid}`);
    const child = runner(base, "hang", ready);
    let suite = 0;
    try {
      await untilReady(ready);
      const [killed] = (await entries(base)).filter((n) => join(base, n) !== other);
      suite = Number((await Deno.readTextFile(join(base, killed!, ".owner"))).split(" ")[1]);
      child.kill("SIGKILL"); // the runner only: its suite runs on, orphaned
      const whileRunning = await runner(base, "pass").output();
      assertEquals(whileRunning.code, 0);
      assertEquals(await entries(base), [killed!, other.split("/").pop()!].sort());
      Deno.kill(suite, "SIGKILL"); // as a user would stop it
      await child.output();
      suite = 0;
      const next = await runner(base, "pass").output();
      assertEquals(next.code, 0);
      assertIncludes(
        new TextDecoder().decode(next.stderr),
        `removed the temp dirs of killed runs: ${killed}`,
      );
      assertEquals(await entries(base), [other.split("/").pop()!]);
    } finally {
      if (suite !== 0) {
        try {
          Deno.kill(suite, "SIGKILL");
        } catch { /* already gone */ }
      }
      await Deno.remove(ready).catch(() => {});
    }
  });
});
