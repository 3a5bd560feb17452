/**
 * `deno task compile [--target TARGET|all]`: build each binary with `deno compile` and the
 * exact permission flags of src/permissions.ts, from its one-file bundle (`dist/<name>.js`,
 * written first by scripts/bundle.ts), so the binary embeds exactly what `deno run
 * dist/<name>.js` runs, with no deno.json and no npm resolution.
 *
 * `deno compile` needs a `denort` runtime for each target, which it normally downloads
 * from dl.deno.land; these machines cannot reach it. So the task takes the runtime from
 * `DENORT_BIN_<TARGET>` (for example `DENORT_BIN_X86_64_UNKNOWN_LINUX_GNU`) or, for the
 * host target, `DENORT_BIN`, and says plainly what is missing when it cannot build.
 *
 * Exit codes: 0 all requested builds done, 1 something could not be built, 2 usage error.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "../src/_path.ts";
import { type BinaryName, PERMISSIONS } from "../src/permissions.ts";
import { bundleAll, ROOT } from "./bundle.ts";

/** The targets every binary is built for. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/** The host's target triple. */
export const HOST_TARGET: string = Deno.build.target;

/**
 * The environment variable that names the denort binary for a target.
 *
 * @param target A target triple.
 * @returns `DENORT_BIN_X86_64_UNKNOWN_LINUX_GNU` and so on.
 */
export function denortVariable(target: string): string {
  return `DENORT_BIN_${target.toUpperCase().replace(/-/g, "_")}`;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** Whether a built binary answers `--version` as itself (a smoke test of the runtime). */
async function answersVersion(path: string, name: string): Promise<boolean> {
  try {
    const r = await new Deno.Command(path, {
      args: ["--version"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    })
      .output();
    return new TextDecoder().decode(r.stdout).startsWith(`${name} `);
  } catch {
    return false;
  }
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: Deno.args,
      options: { target: { type: "string" } },
      strict: true,
    }));
  } catch (error) {
    console.error(`error: ${(error as Error).message.split(". ")[0]}`);
    return 2;
  }
  const wanted = values.target === undefined
    ? [HOST_TARGET]
    : values.target === "all"
    ? [...TARGETS]
    : [values.target];
  for (const t of wanted) {
    if (!(TARGETS as readonly string[]).includes(t)) {
      console.error(`error: unknown target "${t}"; one of ${TARGETS.join(", ")} or all`);
      return 2;
    }
  }
  let failed = 0;
  let bundles: Record<BinaryName, string> | undefined;
  for (const target of wanted) {
    const specific = Deno.env.get(denortVariable(target));
    const generic = target === HOST_TARGET ? Deno.env.get("DENORT_BIN") : undefined;
    const denort = specific ?? generic;
    if (!denort) {
      console.error(
        `cannot build for ${target}: no denort runtime. Set ${denortVariable(target)}` +
          `${
            target === HOST_TARGET ? " or DENORT_BIN" : ""
          } to a denort ${Deno.version.deno} binary ` +
          `for ${target} (deno compile cannot download it: dl.deno.land is not reachable here)`,
      );
      failed++;
      continue;
    }
    if (!(await isFile(denort))) {
      console.error(`cannot build for ${target}: denort binary "${denort}" does not exist`);
      failed++;
      continue;
    }
    if (bundles === undefined) {
      try {
        bundles = await bundleAll(join(ROOT, "dist"));
      } catch (error) {
        console.error(`cannot build for ${target}: ${(error as Error).message}`);
        return 1;
      }
    }
    for (const name of Object.keys(PERMISSIONS) as BinaryName[]) {
      const output = join(ROOT, "dist", target, target.includes("windows") ? `${name}.exe` : name);
      const args = [
        "compile",
        "--quiet",
        "--target",
        target,
        "--no-config",
        "--output",
        output,
        ...PERMISSIONS[name],
        bundles[name],
      ];
      const r = await new Deno.Command(Deno.execPath(), {
        args,
        env: { DENORT_BIN: denort },
        stderr: "piped",
      }).output();
      if (r.code === 0) {
        if (target === HOST_TARGET && !(await answersVersion(output, name))) {
          console.error(
            `cannot build ${name} for ${target}: the result does not run as ${name} ("${denort}" is not a denort runtime; the deno CLI itself will not do)`,
          );
          await Deno.remove(output).catch(() => {});
          failed++;
          continue;
        }
        console.log(`built ${output} (${PERMISSIONS[name].join(" ")})`);
      } else {
        const why = new TextDecoder().decode(r.stderr).trim().split("\n").slice(-1)[0];
        console.error(`cannot build ${name} for ${target}: ${why}`);
        failed++;
      }
    }
  }
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
