/**
 * git's trace on stderr (`GIT_TRACE2_EVENT` lines): the environment variables and the
 * version it names, apart from what git wrote for people.
 *
 * @module
 */

/**
 * Split git's trace events (`GIT_TRACE2_EVENT=2`) from its stderr: the `def_param` values
 * they name, the version the `version` event names, and the other lines as they were.
 *
 * @example A variable named, a message kept
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * const err = '{"event":"version","exe":"2.45.1"}\n{"event":"def_param","param":"HOME","value":"/h"}\nfatal: no\n';
 * assertEquals(splitTrace(err), { traced: { HOME: "/h" }, version: "2.45.1", stderr: "fatal: no\n" });
 * ```
 * @param stderr What git wrote to stderr.
 * @returns The traced variables, the version (when named) and the rest of stderr.
 */
export function splitTrace(
  stderr: string,
): { traced: Record<string, string>; version?: string; stderr: string } {
  const traced: Record<string, string> = {};
  let version: string | undefined;
  const rest: string[] = [];
  for (const line of stderr.split("\n")) {
    if (!line.startsWith('{"event":')) {
      rest.push(line);
      continue;
    }
    try {
      const event = JSON.parse(line);
      if (event?.event === "def_param" && typeof event.param === "string") {
        if (typeof event.value === "string") traced[event.param] = event.value;
      }
      if (event?.event === "version" && typeof event.exe === "string") version = event.exe;
    } catch {
      rest.push(line); // not an event after all
    }
  }
  return { traced, ...(version === undefined ? {} : { version }), stderr: rest.join("\n") };
}
