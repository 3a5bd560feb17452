/**
 * Bench rows for worktree mode, on a parent of 2,000 committed files with 1,000 dirty ones
 * (500 modified, 500 new), every tether command run as its binary runs:
 *
 * - spawn: `handshake --worktree DIR --count 8` against the hand-made way, 8 ×
 *   (`git worktree add` + copying the dirty files with `cp`), and in the same rounds its
 *   floor: git alone writing the children's files (`git read-tree --reset -u`, no check);
 * - spawn by 8 concurrent processes (`handshake wrap --worktree DIR/i`, as a dispatcher that
 *   starts one per child does), against the same hand-made way;
 * - verify in a spawned child against the bash recipe there;
 * - land: `gate --worktree DIR --seed ID --land` of a child that added 20 files, against moving the
 *   same change by hand (`git add -A` and `git diff --cached --binary <seed>` in the child,
 *   `git apply` in the parent, `git worktree remove`).
 *
 * Called from `scripts/bench.ts` (alone there: `deno task bench --only worktree`); or
 * `deno run -A scripts/bench_worktree.ts [spawn] [concurrent] [verify] [land]` for some rows.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { git, makeRepo, run, tempDir } from "../tests/_helpers.ts";
import {
  alternate,
  type GitShim,
  gitShim,
  median,
  progress,
  type Row,
  table,
  tether,
  wall,
  writeMany,
} from "./_bench.ts";

const TRACKED = 2_000;
const DIRTY = 1_000;
const CHILDREN = 8;
const LANDED = 20;
const RECIPE =
  "git rev-parse HEAD; git rev-parse --abbrev-ref HEAD; pwd; git status --porcelain | sha256sum";

function name(i: number): string {
  return `d${String(i % 50).padStart(2, "0")}/f${String(i).padStart(5, "0")}.txt`;
}

/** Remove every linked worktree of the parent and every `tether/` branch and spawn ref. */
async function removeAll(repo: string): Promise<void> {
  const list = await git(repo, ["worktree", "list", "--porcelain", "-z"]);
  const paths = list.split("\0").filter((l) => l.startsWith("worktree ")).map((l) => l.slice(9));
  for (const path of paths.slice(1)) {
    await git(repo, ["worktree", "remove", "--force", "--force", path]);
  }
  await git(repo, ["worktree", "prune"]);
  const refs = await git(repo, [
    "for-each-ref",
    "--format=delete %(refname)",
    "refs/heads/tether/",
    "refs/tether/spawned/",
  ]);
  if (refs) await git(repo, ["update-ref", "--stdin"], `${refs}\n`);
}

function ok(what: string, r: { code: number; stdout: string; stderr: string }): string {
  if (r.code !== 0) throw new Error(`${what} (exit ${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** One spawned child: its directory, its prompt, the seed's id. */
async function spawnOne(repo: string, dir: string) {
  const prompt = await ok(
    "handshake wrap --worktree",
    await tether("handshake", ["wrap", "--worktree", dir], { cwd: repo, stdin: "task\n" }),
  );
  const seed = /^seed: ([0-9a-f]+)$/m.exec(prompt)?.[1];
  if (!seed) throw new Error("no seed in the v2 block");
  return { dir, prompt, seed };
}

/**
 * The hand-made way: 8 × (`git worktree add` + copying the dirty files with `cp`), into
 * `DIR/1` … `DIR/8`, the directories the tether run of the row writes: this file system's
 * cost of making a file depends much on where it goes (which block group, and how many files
 * were deleted there just before), so every run of a row writes in the same place.
 */
function byHand(repo: string, dir: string) {
  const script = `set -e
for i in $(seq 1 ${CHILDREN}); do
  git worktree add -q --detach "$DIR/$i" HEAD
  git ls-files -z -m -o --exclude-standard | xargs -0 cp --parents -t "$DIR/$i"
done`;
  return async () => {
    await ok("by hand", await run("bash", ["-c", script], { cwd: repo, env: { DIR: dir } }));
  };
}

const BY_HAND = `${CHILDREN} × (\`git worktree add --detach\` + ` +
  "`git ls-files -z -m -o --exclude-standard | xargs -0 cp --parents`)";

/**
 * Time runs in rotating order (round i starts with run i), after one warm-up round, with
 * `between` after every run: each run follows every other alike, so a load change or the
 * file system's state after a removal hits all of them.
 */
async function rotate(
  rounds: number,
  runs: readonly (() => Promise<unknown>)[],
  between: () => Promise<unknown>,
): Promise<number[]> {
  const times: number[][] = runs.map(() => []);
  for (let i = -1; i < rounds; i++) {
    for (let k = 0; k < runs.length; k++) {
      const j = (i + 1 + k) % runs.length;
      const ms = await wall(runs[j]!);
      await between();
      if (i >= 0) times[j]!.push(ms);
    }
  }
  return times.map(median);
}

/**
 * The floor of a spawn: git alone writing the children's files, 8 × (`git worktree add
 * --no-checkout` + `git read-tree --reset -u` of the seed's working tree), one at a time,
 * in `DIR/1` … `DIR/8` as the spawn makes them. No check, no capture, no branch.
 */
function floor(repo: string, dir: string, tree: () => string) {
  const script = `set -e
for i in $(seq 1 ${CHILDREN}); do
  git worktree add -q --no-checkout --detach "$DIR/$i" HEAD
  git -C "$DIR/$i" read-tree --reset -u "$TREE"
done`;
  return async () => {
    await ok(
      "floor",
      await run("bash", ["-c", script], { cwd: repo, env: { DIR: dir, TREE: tree() } }),
    );
  };
}

async function benchSpawn(repo: string, kids: string, shim: GitShim): Promise<Row[]> {
  const dir = join(kids, "t");
  const spawn = (env: Record<string, string> = {}) => async () => {
    const out = await ok(
      "handshake --worktree --count",
      await tether("handshake", ["--worktree", dir, "--count", String(CHILDREN)], {
        cwd: repo,
        env,
      }),
    );
    const seed = /^seed: ([0-9a-f]+)$/m.exec(out)?.[1];
    if (!seed) throw new Error("no seed in the v2 block");
    tree = await git(repo, ["rev-parse", `${seed}^{tree}`]);
  };
  let tree = "";
  await spawn()();
  await removeAll(repo);
  const [t, b, f] = await rotate(
    3,
    [spawn(), byHand(repo, dir), floor(repo, dir, () => tree)],
    () => removeAll(repo),
  );
  const count = await shim.count(spawn(shim.env));
  await removeAll(repo);
  return [{
    name: `spawn ${CHILDREN} worktree children, ${DIRTY.toLocaleString("en")} dirty files`,
    tether: t!,
    baseline: b!,
    baselineCommand: BY_HAND,
    target: { kind: "ratio", max: 0.8, note: "well under" },
    git: count,
  }, {
    name: `floor of that spawn: git alone writing the ${CHILDREN} children's ${
      (TRACKED + DIRTY / 2).toLocaleString("en")
    } files each, one child at a time (timed in the same rounds)`,
    tether: f!,
    baseline: b!,
    baselineCommand: `as the row above: ${BY_HAND}; the tether column is ${CHILDREN} × ` +
      "(`git worktree add --no-checkout` + `git read-tree --reset -u <seed's tree>`)",
    target: { kind: "none" },
    git: 2 * CHILDREN,
  }];
}

/** 8 `handshake wrap --worktree DIR/i` processes started at once, as a dispatcher would. */
async function benchConcurrent(repo: string, kids: string, shim: GitShim): Promise<Row> {
  const spawn = (env: Record<string, string> = {}) => async () => {
    const runs = await Promise.all(
      Array.from(
        { length: CHILDREN },
        (_, i) =>
          tether("handshake", ["wrap", "--worktree", join(kids, "p", String(i + 1))], {
            cwd: repo,
            stdin: "task\n",
            env,
          }),
      ),
    );
    runs.forEach((r) => ok("handshake wrap --worktree (concurrent)", r));
  };
  const timed = await alternate(3, spawn(), byHand(repo, join(kids, "p")), () => removeAll(repo));
  const count = await shim.count(spawn(shim.env));
  await removeAll(repo);
  return {
    name: `spawn ${CHILDREN} children by ${CHILDREN} concurrent \`handshake wrap --worktree\``,
    ...timed,
    baselineCommand: `as the row above: ${BY_HAND}`,
    target: { kind: "none" },
    git: count,
  };
}

async function benchVerify(repo: string, kids: string, shim: GitShim): Promise<Row> {
  const child = await spawnOne(repo, join(kids, "v"));
  const verify = (env: Record<string, string> = {}) => async () => {
    await ok(
      "verify in the child",
      await tether("verify", [], { cwd: child.dir, stdin: child.prompt, env }),
    );
  };
  const timed = await alternate(5, verify(), () => run("bash", ["-c", RECIPE], { cwd: child.dir }));
  const count = await shim.count(verify(shim.env));
  await removeAll(repo);
  return {
    name: "`verify` in a spawned child (v2 block)",
    ...timed,
    baselineCommand: "the bash recipe, in the child",
    target: { kind: "none" },
    git: count,
  };
}

async function benchLand(repo: string, kids: string, shim: GitShim): Promise<Row> {
  let round = 0;
  /** A fresh child that added its own 20 files, and the result it returns. */
  const prepare = async () => {
    const child = await spawnOne(repo, join(kids, `l${++round}`));
    const added = Array.from({ length: LANDED }, (_, i) => `landed/r${round}/n${i}.txt`);
    await writeMany(child.dir, added, (i) => `landed ${round} ${i}\n`);
    const result = JSON.stringify({
      ok: true,
      summary: "bench child",
      files_changed: added,
      errors: [],
      evidence: [{ kind: "file", ref: added[0], ok: true }],
    });
    return { ...child, result };
  };
  let next = await prepare();
  const land = (env: Record<string, string> = {}) => async () => {
    await ok(
      "gate --worktree --land",
      await tether("gate", ["--worktree", next.dir, "--seed", next.seed, "--land"], {
        cwd: repo,
        stdin: next.result,
        env,
      }),
    );
  };
  const hand = async () => {
    const script = `set -e
git -C "$CHILD" add -A
git -C "$CHILD" diff --cached --binary "$SEED" | git apply
git worktree remove --force --force "$CHILD"`;
    await ok(
      "land by hand",
      await run("bash", ["-c", script], { cwd: repo, env: { CHILD: next.dir, SEED: next.seed } }),
    );
  };
  const timed = await alternate(3, land(), hand, async () => {
    await removeAll(repo);
    next = await prepare();
  });
  const count = await shim.count(land(shim.env));
  await removeAll(repo);
  return {
    name: `land a child's ${LANDED} new files (\`gate --worktree --land\`)`,
    ...timed,
    baselineCommand:
      "in the child `git add -A` and `git diff --cached --binary <seed>`, piped to " +
      "`git apply` in the parent, then `git worktree remove`",
    target: { kind: "none" },
    git: count,
  };
}

/**
 * The worktree rows.
 *
 * @param shim The git shim that counts processes.
 * @param only The rows to run (`spawn`, `concurrent`, `verify`, `land`); all when empty.
 * @returns Spawn, verify and land rows.
 * @throws {Error} when a command fails.
 */
export async function benchWorktree(
  shim: GitShim,
  only: readonly string[] = [],
): Promise<Row[]> {
  progress(`building a parent of ${TRACKED.toLocaleString("en")} files, ${DIRTY} dirty…`);
  const repo = await makeRepo();
  const kids = await tempDir("tether-bench-kids-");
  try {
    await writeMany(repo, Array.from({ length: TRACKED }, (_, i) => name(i)), (i) => `line ${i}\n`);
    await git(repo, ["add", "-A"]);
    await git(repo, ["commit", "-q", "-m", "files"]);
    const dirty = Array.from({ length: DIRTY }, (_, i) => i % 2 === 0 ? name(i) : `new/n${i}.txt`);
    await writeMany(repo, dirty, (i) => `dirty ${i}\n`);
    await git(repo, ["status", "--porcelain"]);
    const rows: Row[] = [];
    for (
      const [row, bench] of [
        ["spawn", benchSpawn],
        ["concurrent", benchConcurrent],
        ["verify", benchVerify],
        ["land", benchLand],
      ] as const
    ) {
      if (only.length === 0 || only.includes(row)) {
        rows.push(...[await bench(repo, kids, shim)].flat());
      }
    }
    return rows;
  } finally {
    await removeAll(repo).catch(() => {});
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(kids, { recursive: true });
  }
}

if (import.meta.main) {
  const shim = await gitShim();
  try {
    for (const line of table(await benchWorktree(shim, Deno.args))) console.log(line);
  } finally {
    await shim.remove();
  }
}
