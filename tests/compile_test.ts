/**
 * `deno task compile` says plainly what is missing when it cannot build.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { ROOT, run, tempDir } from "./_helpers.ts";

function compile(args: string[], env: Record<string, string>) {
  const keep = ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME"];
  const base: Record<string, string> = {};
  for (const k of keep) {
    const v = Deno.env.get(k);
    if (v !== undefined) base[k] = v;
  }
  return run(
    Deno.execPath(),
    [
      "run",
      "--allow-run",
      "--allow-read",
      "--allow-env",
      "--allow-write",
      join(ROOT, "scripts/compile.ts"),
      ...args,
    ],
    { env: { ...base, ...env }, clearEnv: true },
  );
}

Deno.test("compile without a denort runtime names the variable to set and exits 1", async () => {
  const r = await compile([], {});
  assertEquals(r.code, 1);
  assertIncludes(
    r.stderr,
    `cannot build for ${Deno.build.target}: no denort runtime. Set DENORT_BIN_`,
  );
  assertIncludes(r.stderr, "or DENORT_BIN");
});

Deno.test("compile with a DENORT_BIN that does not exist says so", async () => {
  const missing = join(await tempDir(), "denort");
  const r = await compile([], { DENORT_BIN: missing });
  assertEquals(r.code, 1);
  assertIncludes(r.stderr, `denort binary "${missing}" does not exist`);
});

Deno.test("compile refuses an unknown target as a usage error", async () => {
  const r = await compile(["--target", "sparc-sun-solaris"], {});
  assertEquals(r.code, 2);
  assertIncludes(r.stderr, 'unknown target "sparc-sun-solaris"');
});
