/**
 * tether and the seed's original helper, both ways: a block the original writes (the seed's
 * bash recipe, in its layout: no blank lines, no final newline) is verified by tether, and a
 * block tether writes is checked by the original's Step 0 followed literally in bash (each
 * field equal to the same command run live). In an unchanged tree both match; after a
 * change both halt. The cases where they used to disagree: a branch a tag shares its name
 * with, a directory reached through a symlink, the fields in another order.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { PERMISSIONS } from "../src/permissions.ts";
import { git, makeRepo, ROOT, type Run, run, tempDir, writeFiles } from "./_helpers.ts";

/** The seed's fields in schema order. */
const SCHEMA_ORDER = [
  "parent_head",
  "parent_branch",
  "parent_cwd",
  "parent_dirty_fingerprint",
  "workspace_mode",
  "handshake_issued_at",
];

/** The original parent: each field from its command, printed without blank lines or a final newline. */
const ORIGINAL_PARENT = `set -o pipefail
parent_head=$(git rev-parse HEAD) || exit 3
parent_branch=$(git rev-parse --abbrev-ref HEAD) || exit 3
parent_cwd=$(pwd) || exit 3
parent_dirty_fingerprint=$(git status --porcelain | tr -d '\\r' | sha256sum | cut -c1-12) || exit 3
workspace_mode=shared
handshake_issued_at=$(date -u +%Y-%m-%dT%H:%M:%S.0000000Z)
printf '%s\\n' '<!-- subagent-env-handshake v1 -->'
for name in $ORDER; do printf '%s: %s\\n' "$name" "\${!name}"; done
printf '%s' '<!-- /subagent-env-handshake -->'`;

/** The original's Step 0, literally: parse the block, run the four commands, compare each field. */
const ORIGINAL_STEP0 = `set -o pipefail
block=$(sed -n '/^<!-- subagent-env-handshake v1 -->$/,/^<!-- \\/subagent-env-handshake -->$/p')
[ -n "$block" ] || { echo missing-handshake; exit 4; }
value() { printf '%s\\n' "$block" | sed -n "s/^$1: //p"; }
[ "$(value workspace_mode)" = shared ] || { echo error; exit 3; }
observed_head=$(git rev-parse HEAD) || exit 3
observed_branch=$(git rev-parse --abbrev-ref HEAD) || exit 3
observed_cwd=$(pwd) || exit 3
observed_fp=$(git status --porcelain | tr -d '\\r' | sha256sum | cut -c1-12) || exit 3
diverged=""
[ "$(value parent_head)" = "$observed_head" ] || diverged="$diverged, parent_head"
[ "$(value parent_branch)" = "$observed_branch" ] || diverged="$diverged, parent_branch"
[ "$(value parent_cwd)" = "$observed_cwd" ] || diverged="$diverged, parent_cwd"
[ "$(value parent_dirty_fingerprint)" = "$observed_fp" ] || diverged="$diverged, parent_dirty_fingerprint"
[ -z "$diverged" ] && { echo match; exit 0; }
echo "Diverged fields: \${diverged#, }"; exit 1`;

/** Run a command in `dir` as a shell reaches it with `cd` (so `$PWD` is that spelling). */
function inShell(dir: string, argv: string[], stdin?: string): Promise<Run> {
  const script = 'cd -- "$1" && shift && export PWD && exec "$@"';
  const options = { env: { NO_COLOR: "1" }, ...(stdin === undefined ? {} : { stdin }) };
  return run("bash", ["-c", script, "_", dir, ...argv], options);
}

/** The original parent's block, its fields in `order`. */
async function originalBlock(dir: string, order = SCHEMA_ORDER): Promise<string> {
  const r = await run("bash", [
    "-c",
    `cd -- "$1" && ORDER="$2" && ${ORIGINAL_PARENT}`,
    "_",
    dir,
    order.join(" "),
  ]);
  if (r.code !== 0) throw new Error(r.stderr);
  return r.stdout;
}

/** The original's Step 0 on a prompt, in `dir`. */
function originalStep0(dir: string, prompt: string): Promise<Run> {
  return run("bash", ["-c", `cd -- "$1" && ${ORIGINAL_STEP0}`, "_", dir], { stdin: prompt });
}

/** A tether binary under its exact permissions, in `dir` as a shell reaches it. */
function tether(name: "handshake" | "verify", dir: string, args: string[], stdin?: string) {
  const argv = [Deno.execPath(), "run", "--quiet", "--no-prompt", ...PERMISSIONS[name]];
  return inShell(dir, [...argv, join(ROOT, `${name}.ts`), ...args], stdin);
}

async function tetherBlock(dir: string): Promise<string> {
  const r = await tether("handshake", dir, []);
  assertEquals(r.code, 0, r.stderr);
  return r.stdout;
}

/** The block's fields by name. */
function fieldsOf(block: string): Record<string, string> {
  return Object.fromEntries(
    [...block.matchAll(/^([a-z_]+): (.*)$/gm)].map((m) => [m[1]!, m[2]!]),
  );
}

/** The same block with its field lines in reverse order. */
function reversed(block: string): string {
  const lines = block.split("\n");
  const at = lines.map((l, i) => /^[a-z_]+: /.test(l) ? i : -1).filter((i) => i >= 0);
  const fields = at.map((i) => lines[i]!).reverse();
  at.forEach((i, n) => lines[i] = fields[n]!);
  return lines.join("\n");
}

/** tether's block holds, field by field, what the seed's commands print live in `dir`. */
async function assertSeedValues(dir: string, block: string): Promise<void> {
  const live = fieldsOf(await originalBlock(dir));
  const fields = fieldsOf(block);
  for (const name of SCHEMA_ORDER.slice(0, 4)) assertEquals(fields[name], live[name], name);
}

async function verifyJson(dir: string, block: string) {
  const r = await tether("verify", dir, ["--json"], block);
  return { code: r.code, verdict: JSON.parse(r.stdout), text: r.stdout + r.stderr };
}

Deno.test("original helper: a branch a tag shares its name with (release, v2.1) matches both ways, and both halt on another such branch", async () => {
  for (const name of ["release", "v2.1"]) {
    const repo = await makeRepo({ branch: name });
    await git(repo, ["tag", name]);
    const original = await originalBlock(repo);
    assertEquals(original.endsWith("-->"), true);
    assertEquals(original.includes("\n\n"), false);
    assertEquals(fieldsOf(original).parent_branch, `heads/${name}`);
    const mine = await tetherBlock(repo);
    assertIncludes(mine, `parent_branch: heads/${name}\n`);
    await assertSeedValues(repo, mine);

    const matched = await verifyJson(repo, original);
    assertEquals(matched.code, 0, matched.text);
    assertEquals(matched.verdict.observed.parent_branch, `heads/${name}`);
    assertEquals((await originalStep0(repo, mine)).stdout, "match\n");

    // Another branch, at the same commit, that a tag shares its name with too.
    await git(repo, ["switch", "-q", "-c", "hotfix"]);
    await git(repo, ["tag", "hotfix"]);
    const halted = await verifyJson(repo, original);
    assertEquals(halted.code, 1, halted.text);
    assertEquals(halted.verdict.diverged, ["parent_branch"]);
    const step0 = await originalStep0(repo, mine);
    assertEquals([step0.code, step0.stdout], [1, "Diverged fields: parent_branch\n"]);
  }
});

Deno.test("original helper: a block in tether's spelling of such a branch still matches, and the seed's spelling needs git's word", async () => {
  const repo = await makeRepo({ branch: "release" });
  const before = await tetherBlock(repo); // no tag yet: "release"
  assertIncludes(before, "parent_branch: release\n");
  await git(repo, ["tag", "release"]);
  assertEquals((await verifyJson(repo, before)).code, 0);
  // Spelled as git would only with a tag that is not there: no match.
  const spelled = before.replace("parent_branch: release\n", "parent_branch: heads/release\n");
  await git(repo, ["tag", "-d", "release"]);
  const r = await verifyJson(repo, spelled);
  assertEquals(r.code, 1, r.text);
  assertEquals(r.verdict.diverged, ["parent_branch"]);
});

Deno.test("original helper: a block naming the branch heads/x never matches HEAD on the branch x", async () => {
  const repo = await makeRepo();
  await git(repo, ["switch", "-q", "-c", "heads/x"]);
  const block = await tetherBlock(repo);
  assertIncludes(block, "parent_branch: heads/x\n");
  // Another branch at the same commit, the first one gone: git spells it "x".
  await git(repo, ["switch", "-q", "-c", "x"]);
  await git(repo, ["branch", "-D", "heads/x"]);
  const r = await verifyJson(repo, block);
  assertEquals(r.code, 1, r.text);
  assertEquals(r.verdict.diverged, ["parent_branch"]);
  assertEquals((await originalStep0(repo, block)).code, 1);
});

Deno.test("original helper: HEAD put on a tag named like the branch never matches, though git prints the same name", async () => {
  const repo = await makeRepo({ branch: "release" });
  const block = await tetherBlock(repo);
  assertIncludes(block, "parent_branch: release\n");
  // A tag with a reflog, so the capture can show HEAD held still on it.
  await git(repo, ["update-ref", "--create-reflog", "refs/tags/release", "HEAD"]);
  await git(repo, ["symbolic-ref", "HEAD", "refs/tags/release"]);
  await git(repo, ["update-ref", "-d", "refs/heads/release"]);
  assertEquals(await git(repo, ["rev-parse", "--abbrev-ref", "HEAD"]), "release");
  const r = await verifyJson(repo, block);
  assertEquals(r.code, 1, r.text);
  assertEquals(r.verdict.diverged, ["parent_branch"]);
});

Deno.test("original helper: a directory reached through a symlink matches both ways, and both halt in another directory", async () => {
  const repo = await makeRepo({ files: { "README.md": "r\n", "sub/a.txt": "a\n" } });
  const link = join(await tempDir(), "link");
  await Deno.symlink(repo, link);
  const original = await originalBlock(link);
  assertEquals(fieldsOf(original).parent_cwd, link);
  const mine = await tetherBlock(link);
  assertIncludes(mine, `parent_cwd: ${link}\n`);
  await assertSeedValues(link, mine);

  assertEquals((await verifyJson(link, original)).code, 0);
  assertEquals((await originalStep0(link, mine)).stdout, "match\n");
  // tether still takes either spelling of the one directory.
  assertEquals((await verifyJson(repo, mine)).code, 0);
  assertEquals((await verifyJson(link, mine.replace(link, repo))).code, 0);

  const sub = join(link, "sub");
  const halted = await verifyJson(sub, original);
  assertEquals(halted.code, 1, halted.text);
  assertEquals(halted.verdict.diverged, ["parent_cwd"]);
  const step0 = await originalStep0(sub, mine);
  assertEquals([step0.code, step0.stdout], [1, "Diverged fields: parent_cwd\n"]);
});

Deno.test("original helper: a $PWD naming another directory is never written as parent_cwd", async () => {
  const repo = await makeRepo();
  const other = join(await tempDir(), "other");
  await git(repo, ["clone", "-q", repo, other]); // the same commit, branch and clean status
  const argv = [
    "run",
    "--quiet",
    "--no-prompt",
    ...PERMISSIONS.handshake,
    join(ROOT, "handshake.ts"),
  ];
  const h = await run(Deno.execPath(), argv, { cwd: repo, env: { PWD: other, NO_COLOR: "1" } });
  assertEquals(h.code, 0, h.stderr);
  assertIncludes(h.stdout, `parent_cwd: ${repo}\n`);
  const r = await verifyJson(other, h.stdout);
  assertEquals(r.code, 1, r.text);
  assertEquals(r.verdict.diverged, ["parent_cwd"]);
});

Deno.test("original helper: the fields in another order match both ways, and both halt after an edit", async () => {
  const repo = await makeRepo();
  const order = [...SCHEMA_ORDER].reverse();
  const original = await originalBlock(repo, order);
  assertEquals(
    original.split("\n")[1],
    "handshake_issued_at: " + fieldsOf(original).handshake_issued_at,
  );
  const mine = reversed(await tetherBlock(repo));
  assertEquals(mine.split("\n")[2]!.startsWith("handshake_issued_at: "), true);

  assertEquals((await verifyJson(repo, original)).code, 0);
  assertEquals((await verifyJson(repo, mine)).code, 0);
  assertEquals((await originalStep0(repo, mine)).stdout, "match\n");

  await writeFiles(repo, { "notes.md": "an edit\n" });
  const halted = await verifyJson(repo, original);
  assertEquals(halted.code, 1, halted.text);
  assertEquals(halted.verdict.diverged, ["parent_dirty_fingerprint"]);
  const step0 = await originalStep0(repo, mine);
  assertEquals([step0.code, step0.stdout], [1, "Diverged fields: parent_dirty_fingerprint\n"]);
});

Deno.test("original helper: a field given twice or an unknown field stays the error path, in any order", async () => {
  const repo = await makeRepo();
  const original = await originalBlock(repo, [...SCHEMA_ORDER].reverse());
  const cases = {
    twice: original.replace(
      "workspace_mode: shared\n",
      "workspace_mode: shared\nparent_branch: other\n",
    ),
    unknown: original.replace(
      "workspace_mode: shared\n",
      "workspace_mode: shared\nparent_user: ann\n",
    ),
    missing: original.replace(/^parent_cwd: .*\n/m, ""),
  };
  for (const [name, block] of Object.entries(cases)) {
    const r = await verifyJson(repo, block);
    assertEquals([name, r.code, r.verdict.status], [name, 3, "error"], r.text);
  }
});
