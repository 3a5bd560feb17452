/**
 * Remote URLs with credentials stripped: user names, passwords, tokens and query strings
 * never leave tether. Pure.
 *
 * @module
 */

/**
 * Strip credentials from a remote URL.
 *
 * Trims surrounding whitespace, drops any query string or fragment (tokens travel there
 * too), and removes user info: in `scheme://…` everything up to the last `@` in front of
 * the host (so a password holding `/` or `@` goes too), in scp-like `user[:pass]@host:path`
 * everything up to the `@` in front of the host.
 *
 * @example Strip tokens from URL, scp-like and padded forms
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(stripCredentials("https://user:token@host/x"), "https://host/x");
 * assertEquals(stripCredentials("https://user:pa/ss@host/x"), "https://host/x");
 * assertEquals(stripCredentials(" https://user:tok@host/x"), "https://host/x");
 * assertEquals(stripCredentials("git@github.com:org/repo.git"), "github.com:org/repo.git");
 * assertEquals(stripCredentials("user:tok@github.com:org/r.git"), "github.com:org/r.git");
 * assertEquals(stripCredentials("https://host/@scope/pkg.git"), "https://host/@scope/pkg.git");
 * assertEquals(stripCredentials("https://user:s3cr?et@host/x"), "https://host/x");
 * assertEquals(stripCredentials("https://user:tok#en@host/x"), "https://host/x");
 * assertEquals(stripCredentials("https://user:SECRET@host:abc/x"), "https://host:abc/x");
 * assertEquals(stripCredentials("https://u:SECRET@host /x"), "https://host /x");
 * assertEquals(stripCredentials("https::https://user:TOK1@host/x"), "https::https://host/x");
 * assertEquals(stripCredentials("us#ER3@host:repo"), "host:repo");
 * assertEquals(stripCredentials("ext::git-remote-https https://USR:SEC@host/x"), "ext::(command hidden)");
 * assertEquals(stripCredentials("fd::7 https://USR:SEC@host/x"), "fd::7 https://host/x");
 * assertEquals(stripCredentials("user:TO?K2@github.com:org/r.git"), "github.com:org/r.git");
 * ```
 * @param url The URL as configured.
 * @returns The same URL without credentials.
 */
export function stripCredentials(url: string): string {
  const trimmed = url.trim();
  // `<transport>::<address>` (a remote helper): strip the address. `ext::` runs a command
  // line, which can carry anything: only the transport is shown.
  const helper = /^([A-Za-z][A-Za-z0-9+.-]*::)(.*)$/s.exec(trimmed);
  if (helper?.[1]?.toLowerCase() === "ext::") return "ext::(command hidden)";
  if (helper) return withoutEmbeddedUserInfo(`${helper[1]}${stripCredentials(helper[2] ?? "")}`);
  // User info first, then the query: a `?` or `#` inside a password must not hide the `@`.
  const scheme = /^([a-z][a-z0-9+.-]*:\/\/)(.*)$/is.exec(trimmed);
  if (scheme) {
    const rest = scheme[2] ?? "";
    const at = userInfoEnd(rest);
    return `${scheme[1]}${at === -1 ? rest : rest.slice(at + 1)}`.replace(/[?#].*$/s, "");
  }
  // scp-like: the last `@` followed by `host:`; user info first, then the query.
  for (let at = trimmed.lastIndexOf("@"); at > 0; at = trimmed.lastIndexOf("@", at - 1)) {
    if (/^(?:\[[^\]/@]*\]|[^/:@\s]+):/.test(trimmed.slice(at + 1))) {
      return trimmed.slice(at + 1).replace(/[?#].*$/s, "");
    }
  }
  return trimmed.replace(/[?#].*$/s, "");
}

/** Drop `user[:password]@` after any `scheme://` inside a value (a helper's arguments). */
function withoutEmbeddedUserInfo(text: string): string {
  return text.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/@]+@/g, "$1");
}

/** Host, optional port (digits or not: a malformed one is still no user info), then a path, white space or the end. */
const HOST = /^(?:\[[^\]/@]*\]|[^/:@\s?#]*)(?::[^/@\s]*)?(?:[\s/?#]|$)/;

/**
 * Where the user info of a `scheme://` URL's remainder ends: the last `@` followed by a
 * host, as long as what precedes it is user info (no `/`, or a `user:password` whose
 * password holds a `/`, which a port never does).
 */
function userInfoEnd(rest: string): number {
  for (let at = rest.lastIndexOf("@"); at !== -1; at = rest.lastIndexOf("@", at - 1)) {
    if (!HOST.test(rest.slice(at + 1))) continue;
    const info = rest.slice(0, at);
    const slash = info.indexOf("/");
    if (slash === -1) return at;
    const colon = info.indexOf(":");
    if (colon !== -1 && colon < slash && !/^\d*$/.test(info.slice(colon + 1, slash))) return at;
  }
  return -1;
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
