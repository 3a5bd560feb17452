/**
 * The documents stay true to the tree: every relative link in the README and docs/ leads to
 * a file and, when it names one, a heading there; and every test docs/security.md names as
 * the protection of a guarantee exists in its file under that name.
 */
import { dirname, join, relative } from "node:path";
import { assertEquals, assertOk } from "../src/_assert.ts";
import { ROOT } from "./_helpers.ts";

/** The README and every document directly under docs/. */
async function documents(): Promise<string[]> {
  const docs: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, "docs"))) {
    if (entry.isFile && entry.name.endsWith(".md")) docs.push(join("docs", entry.name));
  }
  return ["README.md", ...docs.sort()];
}

/** A markdown text without its fenced blocks (whose lines are neither links nor headings). */
function withoutFences(text: string): string {
  return text.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, "");
}

/** The anchors GitHub makes for a document's headings. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of withoutFences(text).matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const slug = m[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

Deno.test("docs: every relative link in the README and docs/ leads to a file and a heading", async () => {
  const broken: string[] = [];
  for (const doc of await documents()) {
    const text = await Deno.readTextFile(join(ROOT, doc));
    for (const m of withoutFences(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      const link = m[1]!;
      if (/^[a-z]+:/i.test(link)) continue;
      const [path, anchor] = link.split("#") as [string, string | undefined];
      const target = path === "" ? doc : relative(ROOT, join(ROOT, dirname(doc), path));
      let targetText: string;
      try {
        targetText = await Deno.readTextFile(join(ROOT, target));
      } catch {
        broken.push(`${doc}: ${link} (no file ${target})`);
        continue;
      }
      if (anchor !== undefined && target.endsWith(".md") && !anchors(targetText).has(anchor)) {
        broken.push(`${doc}: ${link} (no heading #${anchor} in ${target})`);
      }
    }
  }
  assertEquals(broken, []);
});

/**
 * What the string literals of a test file can name: a quoted literal exactly, and a template
 * literal with anything in place of each `${…}` (tests made in a loop over cases).
 */
function testNames(source: string): ((name: string) => boolean)[] {
  const out: ((name: string) => boolean)[] = [];
  for (
    const m of source.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)
  ) {
    const literal = m[1] ?? m[2];
    if (literal !== undefined) {
      out.push((name) => name === literal);
      continue;
    }
    const parts = m[3]!.split(/\$\{[^}]*\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const pattern = new RegExp(`^${parts.join(".+")}$`);
    out.push((name) => pattern.test(name));
  }
  return out;
}

Deno.test("docs/security.md: every test it names as a guarantee's protection exists under that name", async () => {
  const text = (await Deno.readTextFile(join(ROOT, "docs/security.md"))).replace(/\s+/g, " ");
  const cited = [...text.matchAll(/`(tests\/[\w.]+_test\.ts)` "([^"]+)"/g)];
  assertOk(cited.length >= 100, `only ${cited.length} tests named`);
  const missing: string[] = [];
  for (const [, file, name] of cited) {
    let source: string;
    try {
      source = await Deno.readTextFile(join(ROOT, file!));
    } catch {
      missing.push(`${file}: no such file`);
      continue;
    }
    if (!testNames(source).some((named) => named(name!))) {
      missing.push(`${file}: no test named "${name}"`);
    }
  }
  assertEquals(missing, []);
});
