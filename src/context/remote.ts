/**
 * Remote URLs with credentials stripped: user names, passwords, tokens and query strings
 * never leave tether. Pure.
 *
 * @module
 */

/**
 * Strip credentials from a remote URL.
 *
 * Removes the user-info part of `scheme://user:token@host/…` and of scp-like
 * `user@host:path`, and drops any query string or fragment (tokens travel there too).
 *
 * @example Strip a token from an HTTPS remote
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(stripCredentials("https://user:token@host/x"), "https://host/x");
 * assertEquals(stripCredentials("git@github.com:org/repo.git"), "github.com:org/repo.git");
 * ```
 * @param url The URL as configured.
 * @returns The same URL without credentials.
 */
export function stripCredentials(url: string): string {
  let out = url.replace(/[?#].*$/s, "");
  const scheme = /^([a-z][a-z0-9+.-]*:\/\/)([^/]*)(.*)$/is.exec(out);
  if (scheme) {
    const authority = scheme[2] ?? "";
    const at = authority.lastIndexOf("@");
    return `${scheme[1]}${at === -1 ? authority : authority.slice(at + 1)}${scheme[3] ?? ""}`;
  }
  const scp = /^([^/:]*@)([^/:]+:.*)$/s.exec(out);
  if (scp) out = scp[2] ?? out;
  return out;
}

/** A remote as the snapshot records it. */
export interface Remote {
  /** The remote's name (`origin`). */
  name: string;
  /** Its fetch URL, credentials stripped. */
  url: string;
}

/**
 * Parse `git config -z --get-regexp '^remote\..*\.url$'` output into remotes.
 *
 * @example Parse one remote and strip its token
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(parseRemoteConfig("remote.origin.url\nhttps://t@h/x\0"), [
 *   { name: "origin", url: "https://h/x" },
 * ]);
 * ```
 * @param text What git printed (`key\nvalue\0` records).
 * @returns Remotes in config order, each URL stripped.
 */
export function parseRemoteConfig(text: string): Remote[] {
  const remotes: Remote[] = [];
  for (const record of text.split("\0")) {
    const newline = record.indexOf("\n");
    if (newline === -1) continue;
    const key = record.slice(0, newline);
    const match = /^remote\.(.+)\.url$/s.exec(key);
    if (!match?.[1]) continue;
    remotes.push({ name: match[1], url: stripCredentials(record.slice(newline + 1)) });
  }
  return remotes;
}
