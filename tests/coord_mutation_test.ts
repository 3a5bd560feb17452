/**
 * The seed's two mutation tests: disable a guard in a copy of the code and show that the
 * acceptance tests then fail. (a) the blindness/channel guard, (b) the artifact-visibility
 * guard. Each guard carries a `// GUARD:<name>` marker on its line; the test asserts the
 * marker exists exactly once, so it cannot silently mutate nothing.
 *
 * The acceptance tests find the entry points through `ROOT` in tests/_helpers.ts, so
 * running them inside the copy runs the mutated code.
 *
 * @module
 */
import { dirname, join, relative } from "node:path";
import { assertEquals, assertOk } from "../src/_assert.ts";
import { ROOT, run, tempDir } from "./_helpers.ts";

const GUARDED = "src/coord/visibility.ts";

/** Copy the sources the tests need (entry points, src, tests, config) into a temp dir. */
async function copySources(): Promise<string> {
  const copy = await tempDir("tether-coord-mutant-");
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const full = join(dir, entry.name);
      const rel = relative(ROOT, full);
      if (entry.isDirectory) {
        if (
          ["src", "tests", "schemas"].includes(rel) || rel.startsWith("src/") ||
          rel.startsWith("tests/")
        ) {
          await walk(full);
        }
      } else if (entry.isFile && (rel.includes("/") || /\.(ts|json|lock)$/.test(rel))) {
        await Deno.mkdir(dirname(join(copy, rel)), { recursive: true });
        await Deno.copyFile(full, join(copy, rel));
      }
    }
  };
  await walk(ROOT);
  return copy;
}

/** Replace the one line carrying a marker; the marker must occur exactly once. */
async function mutate(copy: string, marker: string, replacement: string): Promise<void> {
  const path = join(copy, GUARDED);
  const lines = (await Deno.readTextFile(path)).split("\n");
  const hits = lines.flatMap((line, i) => line.includes(marker) ? [i] : []);
  assertEquals(hits.length, 1, `marker ${marker} must occur once in ${GUARDED}`);
  lines[hits[0]!] = replacement;
  await Deno.writeTextFile(path, lines.join("\n"));
}

/** Run the acceptance test that covers the guard (`filter`: its name's start) in the copy. */
async function runAcceptance(copy: string, file: string, filter: string) {
  return await run(Deno.execPath(), [
    "test",
    "--quiet",
    "--no-check",
    "--no-prompt",
    "--allow-run",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    "--filter",
    filter,
    file,
  ], { cwd: copy, env: { NO_COLOR: "1" } });
}

function failedSteps(output: string): string[] {
  return output.split("\n").filter((line) => /\.\.\. FAILED/.test(line) && !/due to/.test(line));
}

async function mutationFails(
  marker: string,
  replacement: string,
  what: string,
  [file, test]: [string, string],
) {
  const copy = await copySources();
  try {
    await mutate(copy, marker, replacement);
    const r = await runAcceptance(copy, file, test);
    const output = r.stdout + r.stderr;
    assertOk(r.code !== 0, `with ${what} disabled the acceptance tests must fail, but they passed`);
    assertOk(
      /\.\.\. ok/.test(output),
      `the mutant copy must load and pass unrelated tests:\n${output.slice(-2000)}`,
    );
    assertOk(
      /AssertionError/.test(output),
      `failures must be assertions, not load errors:\n${output.slice(-2000)}`,
    );
    const failed = failedSteps(output);
    assertOk(
      failed.length >= 2,
      `several tests must fail with ${what} disabled:\n${failed.join("\n")}`,
    );
    const names = failed.map((line) => line.replace(/ \.\.\. FAILED.*$/, "").trim());
    console.log(
      `mutant (${what} disabled): ${names.length} acceptance steps fail as they should: ${
        names.join("; ")
      }`,
    );
    return failed;
  } finally {
    await Deno.remove(copy, { recursive: true }).catch(() => {});
  }
}

Deno.test("mutation A: with the blindness/channel guard disabled the acceptance tests fail", async () => {
  const failed = await mutationFails(
    "// GUARD:blindness",
    "  return true; // MUTANT: blindness guard disabled",
    "the blindness guard",
    ["tests/coord_acceptance_test.ts", "coord C: W1 and W2 stay blind to each other"],
  );
  assertOk(
    failed.some((line) => /blind|W1|W2|W3|direct|CC|forward|reply/i.test(line)),
    failed.join("\n"),
  );
});

Deno.test("mutation B: with the artifact-visibility guard disabled the acceptance tests fail", async () => {
  const failed = await mutationFails(
    "// GUARD:artifact",
    "    // MUTANT: artifact-visibility guard disabled",
    "the artifact-visibility guard",
    [
      "tests/coord_acceptance_hostile_test.ts",
      "coord H: an unauthorised sender learns nothing from artifact probes",
    ],
  );
  assertOk(
    failed.some((line) => /handoff|commit|artifact|SHA|inspect|probe/i.test(line)),
    failed.join("\n"),
  );
});

Deno.test("the guard markers sit on the guard lines the mutation tests replace", async () => {
  const text = await Deno.readTextFile(join(ROOT, GUARDED));
  const blind = text.split("\n").filter((l) => l.includes("// GUARD:blindness"));
  const artifact = text.split("\n").filter((l) => l.includes("// GUARD:artifact"));
  assertEquals(blind.length, 1);
  assertEquals(artifact.length, 1);
  assertOk(blind[0]!.includes("return blindnessAllows("), blind[0]);
  assertOk(artifact[0]!.includes("return false"), artifact[0]);
});
