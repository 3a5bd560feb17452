/**
 * The layout shows the architecture: capability folders over one shared core, every import
 * pointing down, no cycles. The rules:
 *
 * - The core is the files directly in `src/` (the git runner, path bytes, one-line display,
 *   encodings, the CLI conventions, time, permissions). It imports nothing above it.
 * - Each folder under `src/` has a rank; a module may import the core, its own folder, and
 *   folders of a lower rank, never one of the same rank or higher:
 *   context and contract (1) < seed (2) < handshake, gate, coord (3) < worktree (4)
 *   < harness (5) < commands (6). The entry points (`handshake.ts`, …, `mod.ts`) sit above.
 * - No two files import each other, directly or through others (type imports included).
 * - No file in `src/` is over 500 lines.
 * - No top-level function is over 80 lines unless its doc comment says why it is kept whole
 *   (a sentence starting "Kept whole:").
 *
 * @module
 */
import { dirname, join, normalize, relative } from "node:path";
import { assertEquals } from "../src/_assert.ts";
import { ROOT } from "./_helpers.ts";

const SRC = join(ROOT, "src");

const RANK: Record<string, number> = {
  "": 0,
  context: 1,
  contract: 1,
  seed: 2,
  handshake: 3,
  gate: 3,
  coord: 3,
  worktree: 4,
  harness: 5,
  commands: 6,
};

async function sources(dir = SRC): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await sources(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out.sort();
}

/** The relative imports of a module's code (doc examples and comments left out). */
function imports(path: string, text: string): string[] {
  const found: string[] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trimStart();
    if (trimmed.startsWith("*") || trimmed.startsWith("//") || trimmed.startsWith("/*")) continue;
    for (const m of line.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      found.push(normalize(join(dirname(path), m[1]!)));
    }
  }
  return found;
}

function folder(path: string): string {
  const rel = relative(SRC, path).split("/");
  return rel.length === 1 ? "" : rel[0]!;
}

const files = await sources();
const texts = new Map(
  await Promise.all(files.map(async (f) => [f, await Deno.readTextFile(f)] as const)),
);
const graph = new Map(
  files.map((f) => [f, imports(f, texts.get(f)!).filter((t) => t.startsWith(SRC))]),
);

Deno.test("every import in src/ points down the layers: the core, its own folder, or a lower rank", () => {
  const up: string[] = [];
  for (const [from, targets] of graph) {
    const a = folder(from);
    for (const to of targets) {
      const b = folder(to);
      if (a === b) continue;
      if (!(a in RANK) || !(b in RANK)) {
        up.push(`${relative(ROOT, from)}: folder without a rank`);
      } else if (RANK[b]! >= RANK[a]!) {
        up.push(`${relative(ROOT, from)} -> ${relative(ROOT, to)}`);
      }
    }
  }
  assertEquals(up, []);
});

Deno.test("no module in src/ imports itself through others (no cycles)", () => {
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, "open");
    stack.push(f);
    for (const t of graph.get(f) ?? []) {
      if (!graph.has(t)) continue;
      if (state.get(t) === "open") {
        cycles.push(
          [...stack.slice(stack.indexOf(t)), t].map((p) => relative(SRC, p)).join(" -> "),
        );
      } else if (!state.has(t)) visit(t);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of files) if (!state.has(f)) visit(f);
  assertEquals(cycles, []);
});

Deno.test("no file in src/ is over 500 lines", () => {
  const long = files.map((f) => [relative(ROOT, f), texts.get(f)!.split("\n").length] as const)
    .filter(([, n]) => n > 500).map(([f, n]) => `${f}: ${n} lines`);
  assertEquals(long, []);
});

/** Top-level functions of a module: name, length in lines, and the doc comment above. */
function functions(text: string): { name: string; lines: number; doc: string }[] {
  const lines = text.split("\n");
  const out: { name: string; lines: number; doc: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(?:export\s+)?(?:async\s+)?function\*?\s+([A-Za-z0-9_]+)/.exec(lines[i]!);
    if (!m) continue;
    let end = i;
    while (end < lines.length && lines[end] !== "}") end++;
    let start = i;
    while (start > 0 && /^\s*(\/\*\*|\*|\*\/|\/\/)/.test(lines[start - 1]!)) start--;
    out.push({ name: m[1]!, lines: end - i + 1, doc: lines.slice(start, i).join("\n") });
  }
  return out;
}

Deno.test("no function in src/ is over 80 lines unless its doc says why it is kept whole", () => {
  const long: string[] = [];
  for (const f of files) {
    for (const fn of functions(texts.get(f)!)) {
      if (fn.lines > 80 && !/Kept whole:/.test(fn.doc)) {
        long.push(`${relative(ROOT, f)}: ${fn.name} (${fn.lines} lines)`);
      }
    }
  }
  assertEquals(long, []);
});

Deno.test("no comment in src/ cites a review id instead of saying why", () => {
  const cited: string[] = [];
  for (const f of files) {
    texts.get(f)!.split("\n").forEach((line, i) => {
      if (
        /review [a-z]+-[0-9]+|reviews\/[a-z]+-[0-9]+|\b(?:gate|verify|worktree|coord)-[0-9]+\b/
          .test(line)
      ) {
        cited.push(`${relative(ROOT, f)}:${i + 1}`);
      }
    });
  }
  assertEquals(cited, []);
});
