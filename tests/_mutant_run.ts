/**
 * Runs one test file's tests (those a `--filter` names) the way `deno test` does, as a plain
 * `deno run` program: for a mutant of the checkout, or for the unmutated copy's control
 * (see `tests/_mutation.ts`). `deno test` makes a fresh worker for each test module and
 * fills an 80 MB array in it before the first test (its benchmark timer's), about 55 ms of
 * CPU each time: the mutation tests start some 380 runs.
 *
 * `deno run --allow-all --no-check tests/_mutant_run.ts <test file> [--filter F] [--fail-fast]`
 * (`--fail-fast`: stop at the first failed test, and end a test at its first failed step).
 *
 * What it supports of `Deno.test` is what the suite uses: `Deno.test(name, fn)`,
 * `Deno.test(name, options, fn)`, `Deno.test({ name, fn, ignore, sanitize… })`, a named
 * function, and `t.step(name, fn)` or `t.step({ name, fn, ignore })`, nested. Anything else
 * (`only`, `permissions`, `Deno.bench`, hooks but `Deno.test.afterAll`), like a module that
 * does not load, ends the run with exit code 3 and a line saying so, never with a test's
 * failure: a mutant counts as killed only by its test failing. A rejection no one handles
 * ends the run as Deno ends any program, naming no test (`deno test` names none either:
 * it reports the module's "uncaught error").
 *
 * It prints what `deno test` prints and `tests/_mutation.ts` reads: `<name> ... ok` and
 * `<name> ... FAILED` lines, an ` ERRORS ` section, a ` FAILURES ` section of
 * `<name> => <file>:<line>:<col>` lines, and `ok | N passed | N failed` or
 * `FAILED | N passed | N failed`. Exit code 0 when every test run passed, 1 otherwise.
 *
 * @module
 */
import { resolve } from "../src/_path.ts";

/** The `file:` URL of a path (`%` escaped first, so no name reads as an escape). */
function toFileUrl(path: string): string {
  const url = new URL("file:///");
  const absolute = resolve(path).replaceAll("\\", "/").replaceAll("%", "%25");
  url.pathname = absolute.startsWith("/") ? absolute : `/${absolute}`;
  return url.href;
}

/** A test's or a step's body. */
type Body = (t: Context) => unknown;

/** What a test or a step gets, as `Deno.TestContext` has it. */
interface Context {
  name: string;
  origin: string;
  parent?: Context;
  step(definition: unknown, fn?: unknown): Promise<boolean>;
}

/** A registered test. */
interface Registered {
  name: string;
  fn: Body;
  ignore: boolean;
  at: string;
}

/** An API of `deno test` this runner does not have. */
class Unsupported extends Error {}

const OPTION_KEYS = new Set([
  "name",
  "fn",
  "ignore",
  "sanitizeOps",
  "sanitizeResources",
  "sanitizeExit",
]);

/** Where the caller of the caller is: the test file's line that registered the test. */
function callerLocation(file: string): string {
  const url = toFileUrl(file);
  for (const line of (new Error().stack ?? "").split("\n")) {
    const m = / \(?(file:\/\/\S+?):(\d+):(\d+)\)?$/.exec(line.trim());
    if (m && m[1] === url) return `${file}:${m[2]}:${m[3]}`;
  }
  return `${file}:1:1`;
}

/** Read a registration's arguments as `Deno.test` does. */
function readDefinition(args: unknown[], file: string): Registered {
  const [first, second, third] = args;
  let options: Record<string, unknown>;
  if (typeof first === "string") {
    options = typeof second === "function"
      ? { name: first, fn: second }
      : { ...(second as Record<string, unknown>), name: first, fn: third };
  } else if (typeof first === "function") {
    options = { name: first.name, fn: first };
  } else if (typeof first === "object" && first !== null) {
    options = typeof second === "function"
      ? { ...(first as Record<string, unknown>), fn: second }
      : { ...(first as Record<string, unknown>) };
  } else throw new Unsupported("Deno.test with no name and no function");
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) throw new Unsupported(`Deno.test option "${key}"`);
  }
  if (typeof options.name !== "string" || options.name === "" || typeof options.fn !== "function") {
    throw new Unsupported("Deno.test without a name or a function");
  }
  return {
    name: options.name,
    fn: options.fn as Body,
    ignore: options.ignore === true,
    at: callerLocation(file),
  };
}

function elapsed(since: number): string {
  return `(${Math.round(performance.now() - since)}ms)`;
}

/**
 * Run a body with a context whose steps run in turn; the body's failures and its steps'
 * are what it returns (empty: it passed).
 */
async function runBody(
  name: string,
  fn: Body,
  parent: Context | undefined,
  origin: string,
  depth: number,
): Promise<unknown[]> {
  const failures: unknown[] = [];
  const context: Context = {
    name,
    origin,
    ...(parent ? { parent } : {}),
    async step(definition: unknown, stepFn?: unknown): Promise<boolean> {
      let stepName: string;
      let body: unknown;
      let ignore = false;
      if (typeof definition === "string") [stepName, body] = [definition, stepFn];
      else if (typeof definition === "function") [stepName, body] = [definition.name, definition];
      else if (typeof definition === "object" && definition !== null) {
        const d = definition as Record<string, unknown>;
        for (const key of Object.keys(d)) {
          if (!OPTION_KEYS.has(key)) throw new Unsupported(`t.step option "${key}"`);
        }
        [stepName, body, ignore] = [String(d.name), d.fn, d.ignore === true];
      } else throw new Unsupported("t.step with no name and no function");
      if (typeof body !== "function") throw new Unsupported("t.step without a function");
      const indent = "  ".repeat(depth + 1);
      if (ignore) {
        console.log(`${indent}${stepName} ... ignored (0ms)`);
        return false;
      }
      const start = performance.now();
      const inner = await runBody(stepName, body as Body, context, origin, depth + 1);
      console.log(
        `${indent}${stepName} ... ${inner.length === 0 ? "ok" : "FAILED"} ${elapsed(start)}`,
      );
      failures.push(...inner);
      if (inner.length > 0 && stopAtFailedStep) throw new StepFailed();
      return inner.length === 0;
    },
  };
  try {
    await fn(context);
  } catch (error) {
    if (error instanceof Unsupported) throw error;
    if (!(error instanceof StepFailed)) failures.push(error);
  }
  return failures;
}

/**
 * Thrown by `t.step` after a failed step when the run stops at its first failure: the test
 * has failed already (a failed step fails its test), so its remaining steps need not run.
 */
class StepFailed extends Error {}

/** Whether a failed step ends its test at once (`--fail-fast`). */
let stopAtFailedStep = false;

/**
 * Import `file` with `Deno.test` recording, run the tests whose names `filter` matches.
 *
 * @param file The test file.
 * @param filter A name phrase, or `/regexp/`.
 * @param failFast Stop at the first failed test, and a test at its first failed step.
 * @returns The exit code.
 */
async function main(file: string, filter: string | undefined, failFast: boolean): Promise<number> {
  stopAtFailedStep = failFast;
  const registered: Registered[] = [];
  const afterAll: Array<() => unknown> = [];
  const test = (...args: unknown[]) => registered.push(readDefinition(args, file));
  test.afterAll = (fn: () => unknown) => afterAll.push(fn);
  for (const hook of ["beforeAll", "beforeEach", "afterEach", "ignore", "only"]) {
    (test as unknown as Record<string, unknown>)[hook] = () => {
      throw new Unsupported(`Deno.test.${hook}`);
    };
  }
  const deno = Deno as unknown as Record<string, unknown>;
  deno.test = test;
  deno.bench = () => {
    throw new Unsupported("Deno.bench");
  };
  await import(toFileUrl(file));
  const pattern = filter?.startsWith("/") && filter.endsWith("/") && filter.length > 1
    ? new RegExp(filter.slice(1, -1))
    : undefined;
  const chosen = registered.filter((r) =>
    filter === undefined || (pattern ? pattern.test(r.name) : r.name.includes(filter))
  );
  const started = performance.now();
  console.log(`running ${chosen.length} tests from ${file}`);
  const failed: Array<{ test: Registered; errors: unknown[] }> = [];
  let passed = 0;
  for (const test of chosen) {
    if (test.ignore) {
      console.log(`${test.name} ... ignored (0ms)`);
      continue;
    }
    const start = performance.now();
    console.log(`${test.name} ...`);
    const errors = await runBody(test.name, test.fn, undefined, toFileUrl(file), 0);
    console.log(`${test.name} ... ${errors.length === 0 ? "ok" : "FAILED"} ${elapsed(start)}`);
    if (errors.length === 0) passed++;
    else {
      failed.push({ test, errors });
      if (failFast) break;
    }
  }
  for (const fn of afterAll) await fn();
  if (failed.length > 0) {
    console.log("\n ERRORS \n");
    for (const { test, errors } of failed) {
      for (const error of errors) {
        console.log(`${test.name} => ${test.at}`);
        console.log(
          `error: ${error instanceof Error ? error.stack ?? error : Deno.inspect(error)}\n`,
        );
      }
    }
    console.log(" FAILURES \n");
    for (const { test } of failed) console.log(`${test.name} => ${test.at}`);
    console.log();
  }
  const verdict = failed.length === 0 ? "ok" : "FAILED";
  console.log(`${verdict} | ${passed} passed | ${failed.length} failed ${elapsed(started)}`);
  return failed.length === 0 ? 0 : 1;
}

if (import.meta.main) {
  const args = [...Deno.args];
  const file = args.shift();
  let filter: string | undefined;
  let failFast = false;
  while (args.length > 0) {
    const arg = args.shift()!;
    if (arg === "--filter" && args.length > 0) filter = args.shift();
    else if (arg === "--fail-fast") failFast = true;
    else {
      console.error(`mutant runner: unknown argument ${JSON.stringify(arg)}`);
      Deno.exit(3);
    }
  }
  if (file === undefined) {
    console.error("mutant runner: no test file");
    Deno.exit(3);
  }
  try {
    Deno.exit(await main(file, filter, failFast));
  } catch (error) {
    // Not a test's failure: a module that does not load, or an API this runner lacks.
    const what = error instanceof Unsupported
      ? `unsupported: ${error.message}`
      : Deno.inspect(error);
    console.error(`mutant runner: ${what}`);
    Deno.exit(3);
  }
}
