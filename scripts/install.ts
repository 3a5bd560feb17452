/**
 * `deno task install [--root DIR] [--force]`: put `handshake`, `verify`, `gate` and `coord`
 * on PATH with `deno install -g`, each with exactly its flags from src/permissions.ts.
 * `deno task uninstall [--root DIR]` takes them away again.
 *
 * What is installed is each binary's one-file bundle (scripts/bundle.ts), copied to
 * `DIR/lib/tether/<name>.js`, and a `DIR/bin/<name>` launcher that runs it with
 * `deno run --no-config --no-prompt <flags>`. So an installed command needs no deno.json,
 * no import map, no npm cache and no network; it keeps working when the clone moves, is
 * deleted or checks out another branch; and a project's own deno.json never changes how it
 * runs. `--no-prompt`: a permission it lacks is an error, never a question an agent cannot
 * answer. DIR defaults to Deno's own install root (`$DENO_INSTALL_ROOT`, else `~/.deno`),
 * as `deno install -g` uses.
 *
 * Running it again replaces the five commands (a command of the same name that tether did
 * not install is left alone unless `--force`). Uninstall removes only what tether installed.
 *
 * Exit codes: 0 done, 1 could not install (nothing replaced), 2 usage error.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join, resolve } from "../src/_path.ts";
import { pathToFileURL } from "node:url";
import { type BinaryName, PERMISSIONS } from "../src/permissions.ts";
import { bundleAll, NAMES } from "./bundle.ts";

const HELP = `Install tether's five commands with deno install -g.

Usage:
  deno task install [--root DIR] [--force]
  deno task uninstall [--root DIR]

Options:
  --root DIR   install root: commands go to DIR/bin, bundles to DIR/lib/tether
               (default: $DENO_INSTALL_ROOT, else ~/.deno, as deno install -g uses)
  --force      replace a command of the same name that tether did not install
  -h, --help   this text
`;

const decoder = new TextDecoder();

/** Where the five commands live under an install root. */
export interface Layout {
  root: string;
  bin: string;
  lib: string;
}

/**
 * The install layout for a root.
 *
 * @param root The install root.
 * @returns `root/bin` for launchers and `root/lib/tether` for bundles.
 */
export function layout(root: string): Layout {
  return { root, bin: join(root, "bin"), lib: join(root, "lib", "tether") };
}

/**
 * Deno's own install root: `$DENO_INSTALL_ROOT`, else `.deno` in the home directory.
 *
 * @returns The root, or undefined when neither is known.
 */
export function defaultRoot(): string | undefined {
  const explicit = Deno.env.get("DENO_INSTALL_ROOT");
  if (explicit) return explicit;
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  return home ? join(home, ".deno") : undefined;
}

/** The launcher `deno install -g` writes for a command (a `.cmd` on Windows). */
function launcher(where: Layout, name: BinaryName): string {
  return join(where.bin, Deno.build.os === "windows" ? `${name}.cmd` : name);
}

/** The bundle a command runs. */
function bundlePath(where: Layout, name: BinaryName): string {
  return join(where.lib, `${name}.js`);
}

/**
 * Who owns the launcher of a command: nobody (absent), tether (it runs tether's bundle of
 * that command), or someone else.
 */
async function owner(where: Layout, name: BinaryName): Promise<"none" | "tether" | "other"> {
  let text: string;
  try {
    text = await Deno.readTextFile(launcher(where, name));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "none";
    throw error;
  }
  return text.includes(pathToFileURL(bundlePath(where, name)).href) ? "tether" : "other";
}

async function deno(args: string[]): Promise<{ code: number; output: string }> {
  const r = await new Deno.Command(Deno.execPath(), {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return { code: r.code, output: decoder.decode(r.stdout) + decoder.decode(r.stderr) };
}

function lastLine(text: string): string {
  return text.trim().split("\n").filter((l) => !/^\s*(Stack backtrace|\d+:)/.test(l)).pop() ??
    "";
}

/**
 * Install the five commands under a root, replacing tether's own earlier install.
 *
 * @param where The layout.
 * @param force Replace commands of the same name that tether did not install.
 * @returns The exit code.
 */
export async function install(where: Layout, force: boolean): Promise<number> {
  if (!force) {
    for (const name of NAMES) {
      if (await owner(where, name) === "other") {
        console.error(
          `error: ${launcher(where, name)} exists and was not installed by tether; ` +
            `nothing was installed (--force replaces it)`,
        );
        return 1;
      }
    }
  }
  // Bundle into a fresh dir beside the final place, then rename each file over the old
  // one: a command running meanwhile never sees a half-written bundle.
  await Deno.mkdir(where.lib, { recursive: true });
  const staging = await Deno.makeTempDir({ dir: where.lib, prefix: ".staging-" });
  try {
    const bundles = await bundleAll(staging);
    for (const name of NAMES) await Deno.rename(bundles[name], bundlePath(where, name));
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    return 1;
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
  for (const name of NAMES) {
    const r = await deno([
      "install",
      "--global",
      "--force",
      "--root",
      where.root,
      "--name",
      name,
      "--no-config",
      "--no-prompt",
      ...PERMISSIONS[name],
      pathToFileURL(bundlePath(where, name)).href,
    ]);
    if (r.code !== 0) {
      console.error(`error: cannot install ${name}: ${lastLine(r.output)}`);
      return 1;
    }
    console.log(`installed ${launcher(where, name)} (${PERMISSIONS[name].join(" ")})`);
  }
  const path = (Deno.env.get("PATH") ?? "").split(Deno.build.os === "windows" ? ";" : ":")
    .filter(Boolean);
  if (!path.some((p) => resolve(p) === resolve(where.bin))) {
    console.log(`note: ${where.bin} is not on PATH; add it to call the commands by name`);
  }
  const exe = Deno.build.os === "windows" ? "deno.exe" : "deno";
  const found = await Promise.all(
    path.map((p) => Deno.stat(join(p, exe)).then((s) => s.isFile, () => false)),
  );
  if (!found.includes(true)) {
    console.log(
      "note: the commands run `deno` from PATH and there is none (npx puts it there only " +
        "while it runs): npm install -g deno@2.9.6",
    );
  }
  return 0;
}

/**
 * Remove what {@linkcode install} put under a root; a command of the same name that tether
 * did not install is left alone. Removing what is not there is no error.
 *
 * @param where The layout.
 * @returns The exit code.
 */
export async function uninstall(where: Layout): Promise<number> {
  let failed = 0;
  for (const name of NAMES) {
    const who = await owner(where, name);
    if (who === "other") {
      console.log(`left ${launcher(where, name)}: not installed by tether`);
    } else if (who === "tether") {
      const r = await deno(["uninstall", "--global", "--root", where.root, name]);
      if (r.code !== 0) {
        console.error(`error: cannot uninstall ${name}: ${lastLine(r.output)}`);
        failed++;
        continue;
      }
      console.log(`removed ${launcher(where, name)}`);
    } else {
      console.log(`${name}: not installed in ${where.bin}`);
    }
    await Deno.remove(bundlePath(where, name)).catch(() => {});
  }
  // The bundle dir and lib/ go when nothing else is in them.
  for (const dir of [where.lib, join(where.root, "lib")]) await Deno.remove(dir).catch(() => {});
  return failed === 0 ? 0 : 1;
}

async function main(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        root: { type: "string" },
        force: { type: "boolean" },
        uninstall: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`error: ${(error as Error).message.split(". ")[0]}`);
    console.error("hint: run 'deno task install --help'");
    return 2;
  }
  if (values.help) return console.log(HELP), 0;
  const root = values.root ?? defaultRoot();
  if (root === undefined || root === "") {
    console.error("error: no install root: set --root DIR, DENO_INSTALL_ROOT or HOME");
    return 2;
  }
  const where = layout(resolve(root));
  if (values.uninstall) {
    if (values.force) {
      console.error("error: --force goes with install");
      return 2;
    }
    return await uninstall(where);
  }
  return await install(where, values.force ?? false);
}

if (import.meta.main) Deno.exit(await main(Deno.args));
