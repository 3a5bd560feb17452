/**
 * What git does to a path between blob and worktree, as convert.c decides it from the
 * path's conversion attributes and the repository's settings. Pure.
 *
 * @module
 */
import type { ConversionSettings } from "../context/conversions.ts";

/** The conversion attributes of a path, as `git check-attr` prints their values. */
export interface AttributeRecord {
  text: string;
  eol: string;
  crlf: string;
  filter: string;
  encoding: string;
  ident: string;
}

/**
 * A path's conversion attributes as one string (`name=value;` for each, as
 * `git check-attr` prints them) read back as a record; an attribute not in it is
 * `unspecified`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const a = attributeRecord("text=set;eol=crlf;working-tree-encoding=UTF-16;");
 * assertEquals([a.text, a.eol, a.encoding, a.filter], ["set", "crlf", "UTF-16", "unspecified"]);
 * ```
 * @param state The attributes as one string.
 * @returns The record.
 */
export function attributeRecord(state: string): AttributeRecord {
  const value = (name: string) =>
    new RegExp(`(?:^|;)${name}=([^;]*);`).exec(state)?.[1] ?? "unspecified";
  return {
    text: value("text"),
    eol: value("eol"),
    crlf: value("crlf"),
    filter: value("filter"),
    encoding: value("working-tree-encoding"),
    ident: value("ident"),
  };
}

/** What git does to a path between blob and worktree. */
export interface Conversion {
  /** A filter driver runs. */
  filter: boolean;
  /** The bytes are re-encoded. */
  encoding: boolean;
  /** `$Id$` is expanded. */
  ident: boolean;
  /**
   * Line ends a checkout writes as CRLF: always (`text`), only for a blob without CRs that
   * looks like text (`text=auto`, or `core.autocrlf=true`), or never.
   */
  crlf: "always" | "auto" | false;
  /** Whether `git add` turns CRLF into LF. */
  normalize: boolean;
}

/**
 * What git does to a path with these attributes under these settings, as convert.c decides
 * it: the `text` attribute first and the older `crlf` only when `text` says nothing
 * (`crlf` set is `text`, `-crlf` is `-text`, `crlf=input` is `text eol=lf`); an `eol`
 * attribute implies `text`; without either, `core.autocrlf` (`true`: auto, CRLF out;
 * `input`: auto, LF out); with `text`, the `eol` attribute, else `core.autocrlf`, else
 * `core.eol` (`native` is CRLF on Windows only).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const none = { text: "unspecified", eol: "unspecified", crlf: "unspecified", filter: "unspecified", encoding: "unspecified", ident: "unspecified" };
 * const lf = { autocrlf: "false", eol: "lf", key: "", pins: [] };
 * assertEquals(conversionOf({ ...none, crlf: "unset", text: "set", eol: "crlf" }, lf).crlf, "always");
 * assertEquals(conversionOf(none, { ...lf, autocrlf: "true" }).crlf, "auto");
 * assertEquals(conversionOf({ ...none, crlf: "unset" }, { ...lf, autocrlf: "true" }).crlf, false);
 * ```
 */
export function conversionOf(
  a: AttributeRecord,
  settings: { autocrlf: string; eol: string; drivers?: ReadonlySet<string> },
): Conversion {
  const set = (v: string) => v !== "unspecified" && v !== "unset";
  let text = a.text; // "set", "unset", "auto" or "unspecified"
  let eol = a.eol;
  if (text === "unspecified") {
    if (a.crlf === "set") text = "set";
    else if (a.crlf === "unset") text = "unset";
    else if (a.crlf === "input") [text, eol] = ["set", "lf"];
  }
  if (text === "unspecified" && (eol === "lf" || eol === "crlf")) text = "set";
  let crlf: Conversion["crlf"] = false;
  let normalize = false;
  if (text === "set" || text === "auto") {
    normalize = true;
    const out = eol === "lf" || eol === "crlf"
      ? eol
      : settings.autocrlf === "true"
      ? "crlf"
      : settings.autocrlf === "input"
      ? "lf"
      : settings.eol === "crlf" || (settings.eol === "native" && Deno.build.os === "windows")
      ? "crlf"
      : "lf";
    if (out === "crlf") crlf = text === "set" ? "always" : "auto";
  } else if (text === "unspecified" && settings.autocrlf !== "false") {
    normalize = true;
    if (settings.autocrlf === "true") crlf = "auto";
  }
  // A filter the config does not define runs nothing (Git LFS attributes without git-lfs).
  const filter = set(a.filter) && (settings.drivers?.has(a.filter) ?? true);
  return { filter, encoding: set(a.encoding), ident: a.ident === "set", crlf, normalize };
}

/** Whether a checkout under these attributes writes the blob's bytes as they are. */
export function convertsNothing(a: AttributeRecord, settings: ConversionSettings): boolean {
  const c = conversionOf(a, settings);
  return !c.filter && !c.encoding && !c.ident && c.crlf === false;
}
