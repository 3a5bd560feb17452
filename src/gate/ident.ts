/**
 * Paths under the `ident` attribute, judged without git's conversion. `ident` makes git
 * collapse `$Id: … $` to `$Id$` before it compares a file with the index, so anything a
 * child writes inside one is invisible to `git status` (once the entry's stat data forces a
 * content comparison, which `git update-index --cacheinfo` does) and to a filtered id; and
 * `<git dir>/info/attributes`, which a child can write, sets it. gate reads every such path
 * directly and takes it for unchanged only when its bytes are what a checkout of the
 * committed blob writes: each `$Id$` expanded to `$Id: <blob id> $`, as gitattributes(5)
 * says, with the blob's own line ends or, under the spawn's conversion settings, with CRLF
 * ({@linkcode checkoutIds}).
 *
 * @module
 */
import { runGit } from "../git.ts";
import { objectId } from "../seed/commit.ts";
import { decodePaths } from "../paths.ts";
import { concatBytes, encodeText } from "../encoding.ts";
import { type ObjectFormat } from "../git_objects.ts";

/**
 * The paths among `paths` the `ident` attribute applies to now: one `git check-attr`.
 *
 * @param top The worktree's top level.
 * @param paths Index paths.
 * @returns The paths with `ident` set.
 * @throws {GitError} when git fails.
 */
export async function identPaths(top: string, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const r = await runGit(["check-attr", "-z", "--stdin", "ident"], {
    cwd: top,
    parse: true,
    stdin: paths.join("\0") + "\0",
  });
  const fields = decodePaths(r.stdout);
  const out: string[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    if (fields[i + 2] === "set") out.push(fields[i]!);
  }
  return out;
}

const encoder = new TextEncoder();

/**
 * `content` as a checkout that converts line ends to CRLF writes it: every LF that no CR
 * precedes becomes CRLF (git's `text` conversion; `text=auto` converts only a blob without
 * CRs, which is then the blob itself).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const crlf = crlfCheckout(new TextEncoder().encode("a\nb\r\nc\n"));
 * assertEquals(new TextDecoder().decode(crlf), "a\r\nb\r\nc\r\n");
 * ```
 * @param content The blob's bytes.
 * @returns The bytes with CRLF line ends.
 */
export function crlfCheckout(content: Uint8Array): Uint8Array {
  let lone = 0;
  for (let i = 0; i < content.length; i++) {
    if (content[i] === 0x0a && (i === 0 || content[i - 1] !== 0x0d)) lone++;
  }
  if (lone === 0) return content;
  const out = new Uint8Array(content.length + lone);
  let j = 0;
  for (let i = 0; i < content.length; i++) {
    if (content[i] === 0x0a && (i === 0 || content[i - 1] !== 0x0d)) out[j++] = 0x0d;
    out[j++] = content[i]!;
  }
  return out;
}

/** `content` with every `$Id$` expanded to `$Id: <oid> $`, as a checkout under `ident` writes it. */
function identCheckout(content: Uint8Array, oid: string): Uint8Array {
  const keyword = encoder.encode("$Id$");
  const expanded = encoder.encode(`$Id: ${oid} $`);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i + keyword.length <= content.length; i++) {
    if (keyword.every((b, j) => content[i + j] === b)) {
      parts.push(content.subarray(start, i), expanded);
      i += keyword.length - 1;
      start = i + 1;
    }
  }
  parts.push(content.subarray(start));
  return concatBytes(parts);
}

/** Which conversions a checkout of the blob may have made. */
export interface CheckoutForms {
  /** `ident`: `$Id$` expanded. */
  ident: boolean;
  /**
   * Line ends converted to CRLF: always (`text`), only for a blob without a CR or a NUL
   * (`text=auto`: git writes any other as it is), or never.
   */
  crlf: "always" | "auto" | boolean;
}

/**
 * The blob ids of what a checkout of `content` writes under the conversions `forms` allows:
 * `$Id$` expanded to `$Id: <blob id> $` (gitattributes(5)) where `ident` applies, line
 * ends turned into CRLF where they may be, and both. A file whose bytes are one of these
 * holds the committed content, written by a checkout. The line-end forms are offered only
 * where gate judges the file by what it holds, never where what it holds vouches for a
 * staged or committed version (a CRLF rewrite must not vouch for the blob beside it).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const blob = new TextEncoder().encode("/* $Id$ *\/\n");
 * const oid = "a".repeat(40);
 * const [lf] = await checkoutIds(blob, oid, "sha1", { ident: true, crlf: false });
 * const { objectId } = await import("../seed/commit.ts");
 * assertEquals(lf, await objectId("blob", new TextEncoder().encode(`/* $Id: ${oid} $ *\/\n`), "sha1"));
 * assertEquals((await checkoutIds(blob, oid, "sha1", { ident: true, crlf: true })).length, 3);
 * ```
 * @param content The committed blob's bytes.
 * @param oid The blob's id.
 * @param format The repository's object format.
 * @param forms Which conversions may have applied.
 * @returns The ids, without the blob's own.
 */
export async function checkoutIds(
  content: Uint8Array,
  oid: string,
  format: ObjectFormat,
  forms: CheckoutForms,
): Promise<string[]> {
  const variants: Uint8Array[] = [];
  const crlf = forms.crlf === "auto"
    ? autoConverts(content) // tether:guard ident-auto-crlf
    : forms.crlf !== false;
  if (forms.ident) variants.push(identCheckout(content, oid));
  if (crlf) variants.push(crlfCheckout(content));
  if (forms.ident && crlf) variants.push(crlfCheckout(identCheckout(content, oid)));
  return await Promise.all(variants.map((v) => objectId("blob", v, format)));
}

/**
 * Whether `text=auto` (or `core.autocrlf=true`) converts this blob's line ends on checkout,
 * as git's convert.c decides: not when it holds a CR (lone or in a CRLF), and not when it
 * looks binary (a NUL, or more than one non-printable byte per 128 printable ones; a final
 * Ctrl-Z does not count).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const bytes = (s: string) => new TextEncoder().encode(s);
 * assertEquals([autoConverts(bytes("a\nb\n")), autoConverts(bytes("a\r\n")), autoConverts(bytes("\x01\x02\n"))], [true, false, false]);
 * ```
 * @param content The blob's bytes.
 * @returns True when a checkout writes its LFs as CRLF.
 */
export function autoConverts(content: Uint8Array): boolean {
  let printable = 0;
  let nonprintable = 0;
  for (let i = 0; i < content.length; i++) {
    const c = content[i]!;
    if (c === 0x0d || c === 0) return false;
    if (c === 0x0a) continue;
    if (c === 0x7f) nonprintable++;
    else if (c < 0x20) {
      if (c === 0x08 || c === 0x09 || c === 0x1b || c === 0x0c) printable++;
      else if (!(c === 0x1a && i === content.length - 1)) nonprintable++;
    } else printable++;
  }
  return (printable >> 7) >= nonprintable;
}

/** `text` in UTF-16, little- or big-endian, with or without a byte-order mark. */
function utf16Forms(text: string): Uint8Array[] {
  return (["utf-16le", "utf-16be"] as const).flatMap((encoding) => [
    encodeText(text, encoding),
    encodeText(`\ufeff${text}`, encoding),
  ]);
}

/**
 * The blob ids of everything a checkout of `content` may write under any settings gate
 * knows of: CRLF line ends, `$Id$` expanded (with or without CRLF), and, for a blob that is
 * UTF-8 text, UTF-16 in either byte order with or without a byte-order mark (with or without
 * CRLF). A file that holds one of these, where git's reading says it changed, may be a
 * checkout the settings no longer describe (they changed before the spawn): gate cannot tell.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const { objectId } = await import("../seed/commit.ts");
 * const blob = new TextEncoder().encode("a\n");
 * const ids = await checkoutForms(blob, "a".repeat(40), "sha1");
 * assertEquals(ids.includes(await objectId("blob", new TextEncoder().encode("a\r\n"), "sha1")), true);
 * assertEquals(ids.includes(await objectId("blob", Uint8Array.from([0x61, 0, 0x0a, 0]), "sha1")), true);
 * ```
 * @param content The committed blob's bytes.
 * @param oid The blob's id.
 * @param format The repository's object format.
 * @returns The ids.
 */
export async function checkoutForms(
  content: Uint8Array,
  oid: string,
  format: ObjectFormat,
): Promise<string[]> {
  const variants = [crlfCheckout(content)];
  const identForm = identCheckout(content, oid);
  if (identForm.length !== content.length) variants.push(identForm, crlfCheckout(identForm));
  let text: string | undefined;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(content);
  } catch {
    text = undefined; // not UTF-8: no encoding a checkout re-encodes from
  }
  if (text !== undefined) {
    const crlfText = new TextDecoder().decode(crlfCheckout(content));
    variants.push(...utf16Forms(text), ...(crlfText === text ? [] : utf16Forms(crlfText)));
  }
  return await Promise.all(variants.map((v) => objectId("blob", v, format)));
}
