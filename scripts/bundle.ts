/**
 * `deno task bundle [--out DIR]`: write each binary as one self-contained JavaScript file,
 * `DIR/handshake.js`, `DIR/verify.js`, `DIR/gate.js`, `DIR/coord.js` (default `dist/`),
 * with `deno bundle`. zod and every local module are inlined; the only imports left are
 * Deno's own `node:` built-ins. So each file runs with `deno run <its flags> DIR/<name>.js`
 * from any directory, with no deno.json, no import map, no npm cache and no network.
 *
 * Exit codes: 0 all written, 1 a bundle could not be built, 2 usage error.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join, resolve } from "../src/_path.ts";
import { type BinaryName, PERMISSIONS } from "../src/permissions.ts";
import config from "../deno.json" with { type: "json" };

/** The repository root (where the entry points and deno.json live). */
export const ROOT: string = resolve(import.meta.dirname!, "..");

/** The binaries, in the order they are built. */
export const NAMES = Object.keys(PERMISSIONS) as BinaryName[];

/**
 * The first line of a bundle: what it is and the exact command that runs it.
 *
 * @param name The binary.
 * @returns A JavaScript line comment.
 */
export function bundleHeader(name: BinaryName): string {
  return `// ${name} ${config.version} (tether), one file: deno run ${
    PERMISSIONS[name].join(" ")
  } ${name}.js\n`;
}

/**
 * Import specifiers left in a bundle's text that are not `node:` built-ins (there must be
 * none). esbuild writes static imports at the start of a line and dynamic ones as
 * `import("…")`.
 *
 * @example A bundle that still needs npm
 * ```ts
 * import { assertEquals } from "../src/_assert.ts";
 * assertEquals(foreignImports('import { z } from "npm:zod";\nimport { join } from "node:path";'), ["npm:zod"]);
 * assertEquals(foreignImports('const m = await import("node:util");'), []);
 * assertEquals(foreignImports('import {\n  a,\n  b\n} from "./x.ts";\nexport { c } from "npm:y";'), ["./x.ts", "npm:y"]);
 * assertEquals(foreignImports('export const s = "import x from \'y\'";\nimport.meta.main;'), []);
 * ```
 * @param text The bundle.
 * @returns The offending specifiers.
 */
export function foreignImports(text: string): string[] {
  const found: string[] = [];
  const pattern =
    /^import(?=[\s{*"'])[^;"']*["']([^"'\n]+)["']|^export\b[^;"'=]*\bfrom\s*["']([^"'\n]+)["']|\bimport\(\s*["']([^"'\n]+)["']\s*\)/gm;
  for (const m of text.matchAll(pattern)) {
    const specifier = m[1] ?? m[2] ?? m[3]!;
    if (!specifier.startsWith("node:")) found.push(specifier);
  }
  return found;
}

/**
 * Bundle one binary.
 *
 * @param name The binary.
 * @param outDir Where to write `<name>.js`.
 * @returns The written path.
 * @throws {Error} with deno bundle's last line when it fails, or when the bundle still
 * imports something other than a `node:` built-in.
 */
export async function bundleOne(name: BinaryName, outDir: string): Promise<string> {
  const output = join(outDir, `${name}.js`);
  const partial = `${output}.partial`;
  const r = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "deno",
      "--config",
      join(ROOT, "deno.json"),
      "--output",
      partial,
      join(ROOT, `${name}.ts`),
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (r.code !== 0) {
    await Deno.remove(partial).catch(() => {});
    const why = new TextDecoder().decode(r.stderr).trim().split("\n").slice(-1)[0];
    throw new Error(`cannot bundle ${name}: ${why || `deno bundle exited with ${r.code}`}`);
  }
  const text = await Deno.readTextFile(partial);
  const foreign = foreignImports(text);
  if (foreign.length > 0) {
    await Deno.remove(partial);
    throw new Error(`cannot bundle ${name}: the bundle still imports ${foreign.join(", ")}`);
  }
  await Deno.writeTextFile(partial, bundleHeader(name) + text);
  await Deno.rename(partial, output); // never a half-written bundle under the final name
  return output;
}

/**
 * Bundle every binary into a directory (created when missing).
 *
 * @param outDir Where to write the files.
 * @returns The written paths, by binary.
 * @throws {Error} as {@linkcode bundleOne}.
 */
export async function bundleAll(outDir: string): Promise<Record<BinaryName, string>> {
  await Deno.mkdir(outDir, { recursive: true });
  const written = {} as Record<BinaryName, string>;
  for (const name of NAMES) written[name] = await bundleOne(name, outDir);
  return written;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: Deno.args,
      options: { out: { type: "string" } },
      strict: true,
    }));
  } catch (error) {
    console.error(`error: ${(error as Error).message.split(". ")[0]}`);
    return 2;
  }
  const outDir = resolve(values.out ?? join(ROOT, "dist"));
  try {
    const written = await bundleAll(outDir);
    for (const name of NAMES) {
      console.log(`bundled ${written[name]} (deno run ${PERMISSIONS[name].join(" ")})`);
    }
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main());
