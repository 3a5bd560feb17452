/**
 * The code examples of the API docs, as `deno test --doc` finds them: every fenced block
 * tagged `ts`, `typescript` or `js` (and not `ignore`) in a JSDoc comment of a TypeScript file, and the module
 * that runs one the way `deno test --doc` does (the file's exports in scope, relative
 * imports resolved against the file).
 *
 * @module
 */
import { dirname, join, resolve } from "../src/_path.ts";

/** One example: where it is and its code. */
export interface Example {
  /** `path/to/file.ts#first-last.ts`, the lines of the block (as `deno test --doc` names it). */
  name: string;
  /** The file it documents. */
  file: string;
  /** Its code. */
  body: string;
}

/** The `file:` URL of an absolute path (`%` escaped first, so no name reads as an escape). */
export function fileUrl(path: string): string {
  const url = new URL("file:///");
  const absolute = path.replaceAll("\\", "/").replaceAll("%", "%25");
  url.pathname = absolute.startsWith("/") ? absolute : `/${absolute}`;
  return url.href;
}

/** Every `.ts` file below `root` (or `root` itself), sorted. */
export async function tsFiles(root: string): Promise<string[]> {
  const info = await Deno.stat(root);
  if (info.isFile) return root.endsWith(".ts") ? [root] : [];
  const out: string[] = [];
  for await (const entry of Deno.readDir(root)) {
    const path = join(root, entry.name);
    if (entry.isDirectory) out.push(...await tsFiles(path));
    else if (entry.isFile && entry.name.endsWith(".ts")) out.push(path);
  }
  return out.sort();
}

/** The tags of a block that runs (the ones `deno check --doc-only` type-checks as code). */
const RUN = new Set(["ts", "typescript", "js", "javascript", "mts", "cts", "mjs", "cjs"]);

/** An import declaration at a line's start, through the `;` that ends it. */
const IMPORT = /^import\s[\s\S]*?;[ \t]*$/gm;

/**
 * The examples of one file.
 *
 * @param root The directory names are given relative to.
 * @param file The file's path.
 * @param text Its text.
 * @returns Its examples, in order.
 */
export function examplesOf(root: string, file: string, text: string): Example[] {
  const out: Example[] = [];
  const lines = text.split("\n");
  let inDoc = false;
  let block: { first: number; body: string[] } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!inDoc) {
      if (/^\s*\/\*\*/.test(line) && !/\*\/\s*$/.test(line)) inDoc = true;
      continue;
    }
    if (/\*\/\s*$/.test(line)) {
      inDoc = false;
      block = undefined;
      continue;
    }
    const content = line.replace(/^\s*\* ?/, "");
    const fence = /^```(\S*)(.*)$/.exec(content);
    if (block === undefined && fence) {
      if (RUN.has(fence[1]!) && !/\bignore\b/.test(fence[2]!)) block = { first: i + 1, body: [] };
      else if (fence[1] !== "") block = { first: -1, body: [] }; // another language: skipped
      continue;
    }
    if (block !== undefined && /^```\s*$/.test(content)) {
      if (block.first > 0) {
        const name = `${file.slice(root.length + 1)}#${block.first}-${i + 2}.ts`;
        out.push({ name, file, body: block.body.join("\n") });
      }
      block = undefined;
      continue;
    }
    block?.body.push(content);
  }
  return out;
}

/** The local names an import declaration binds. */
function importedNames(declaration: string): string[] {
  const head = declaration.replace(/\sfrom\s*["'][^"']*["'][\s\S]*$/, "").replace(
    /^import\s+(type\s+)?/,
    "",
  );
  const names: string[] = [];
  for (const m of head.matchAll(/\*\s+as\s+([\w$]+)/g)) names.push(m[1]!);
  const braces = /\{([^}]*)\}/.exec(head);
  for (const part of braces ? braces[1]!.split(",") : []) {
    const local = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()?.trim();
    if (local) names.push(local);
  }
  const first = /^([\w$]+)\s*(,|$)/.exec(head.trim());
  if (first) names.push(first[1]!);
  return names;
}

/**
 * The module that runs one example: its imports first (relative ones made absolute), then
 * a default export that puts the documented module's exports it names (and does not import
 * itself) in scope, and runs the rest in a block of its own, where a name the example
 * declares shadows an export of that name. A relative `import("…")` is made absolute too.
 *
 * @param file The documented file.
 * @param body The example's code.
 * @param exported The names the documented module exports.
 * @returns The module's source.
 */
export function moduleOf(file: string, body: string, exported: readonly string[]): string {
  const absolute = (specifier: string) => fileUrl(resolve(dirname(file), specifier));
  const declarations = body.match(IMPORT) ?? [];
  const imports = declarations.map((declaration) =>
    declaration.replace(
      /(\sfrom\s*|^import\s*)(["'])(\.{1,2}\/[^"']*)\2/,
      (_, head, quote, specifier) => `${head}${quote}${absolute(specifier)}${quote}`,
    )
  );
  const rest = body.replace(IMPORT, "").replace(
    /\bimport\((["'])(\.{1,2}\/[^"']*)\1\)/g,
    (_, quote, specifier) => `import(${quote}${absolute(specifier)}${quote})`,
  );
  const own = new Set(declarations.flatMap(importedNames));
  const used = new Set(rest.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const names = exported.filter((n) => used.has(n) && !own.has(n) && n !== "default");
  return [
    `import * as documented from ${JSON.stringify(fileUrl(file))};`,
    ...imports,
    "export default async function () {",
    names.length > 0 ? `  const { ${names.join(", ")} } = documented;` : "",
    "  {",
    rest,
    "  }",
    "}",
    "",
  ].join("\n");
}
