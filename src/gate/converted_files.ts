/**
 * Files a checkout may have converted (CRLF, an encoding, a filter, `$Id$`): a path that
 * held the spawn HEAD's content (no status entry at spawn) and whose bytes differ from its
 * blob may hold what `git add` stores as it. git's reading (the filtered id) tells only
 * under the spawn's conversion settings: those no file shows are as the snapshot recorded,
 * and every `.gitattributes` that applies is as it was. Where that holds, the filtered id
 * proves a file unchanged; where nothing tells, the path is unknown: it confirms nothing
 * and proves no work.
 *
 * @module
 */
import { type PathContent } from "../context/content.ts";
import type { ConversionSettings } from "../context/conversions.ts";
import { readDrivers } from "../context/filters.ts";
import { REGULAR_MODES, type StatusEntry } from "../context/porcelain.ts";
import type { GitSnapshot } from "../context/snapshot.ts";
import { attributeFilesSame, type AttributeReading } from "./attribute_files.ts";
import { checkoutLike, proveCheckouts, writtenAsTheBlob } from "./checkouts.ts";
import { conversionOf } from "./conversion_rules.ts";
import type { LiveState } from "./live_state.ts";
import type { LiveRepo } from "./repo.ts";
import type { IndexEntry } from "./staged.ts";
import type { Held } from "./versions.ts";
import {
  type ConversionAttributes,
  readConversionAttributes,
  readFilteredIds,
} from "../context/filtered.ts";

/** What the converted files are judged with. */
export interface Converting {
  /** What the paths hold now; a filtered id that proves a file unchanged is set here. */
  now: Map<string, PathContent>;
  /** The live state. */
  state: LiveState;
  /** The snapshot's git part. */
  git: GitSnapshot;
  /** The snapshot's status entries by path. */
  spawnEntry: ReadonlyMap<string, StatusEntry>;
  /** The index's stage-0 entries by path. */
  indexByPath: ReadonlyMap<string, IndexEntry>;
  /** Unexplained index entries and HEAD leaves: their paths' readings are asked for too. */
  staging: ReadonlyMap<string, Held>;
  committed: ReadonlyMap<string, Held>;
  /** The paths a verdict turns on: claims and file evidence. */
  decides: ReadonlySet<string>;
}

/** The paths whose conversions are weighed. */
interface Candidates {
  /** Regular files the snapshot does not record whose bytes are not the spawn HEAD's blob. */
  judged: string[];
  /** Files git's reading is asked for: those, and unexplained index entries and HEAD leaves. */
  toFilter: string[];
  /** Regular files the snapshot does not record that hold the spawn HEAD's blob's bytes. */
  blobBytes: string[];
}

/** How the candidates read under the settings now, and whether as at spawn. */
interface Readings {
  /** The conversion settings now, with the filter drivers the config defines. */
  settings: ConversionSettings;
  /** Whether the settings no file shows are the spawn's. */
  settingsSame: boolean;
  /** How a path's attributes read against the spawn's. */
  reading: (path: string) => AttributeReading;
  /** The conversion attributes of the candidates, as hash-object reads them. */
  attributes: Map<string, ConversionAttributes>;
  /** git's reading of the `toFilter` paths, or undefined where none is possible. */
  filtered: Map<string, string> | undefined;
  /** Whether git's reading of a path is the spawn's. */
  asAtSpawn: (path: string) => boolean;
  /** Whether a filter driver the config defines runs for a path. */
  filters: (a: { filter: boolean; driver?: string } | undefined) => boolean;
}

/**
 * Judge the files a checkout may have converted: set the filtered ids that prove files
 * unchanged, and say which paths nothing tells about.
 *
 * @param repo The live repository.
 * @param c What the files are judged with.
 * @returns The paths gate cannot tell changed or unchanged.
 */
export async function tellConverted(repo: LiveRepo, c: Converting): Promise<Set<string>> {
  const { now } = c;
  const { trees } = c.state;
  const found = candidates(c);
  const readings = await readReadings(repo, c, found);
  takeFilteredIds(now, found.toFilter, readings);
  await proveIdentCheckouts(repo, c, found.judged, readings);
  const unknown = new Set<string>();
  const suspects = await suspectsOf(repo, c, found.judged, readings, unknown);
  // Only where it decides something: a claim or file evidence. Any other such path is
  // listed as changed or as unknown alike (observed_unclaimed), and reading every blob of a
  // large change would cost what the rest of gate does.
  const weighed = suspects.filter((p) => c.decides.has(p));
  for (const path of await checkoutLike(repo, now, weighed, trees)) { // tether:guard gate-checkout-like
    unknown.add(path);
  }
  // Bytes that are the blob's own, where a checkout under the spawn's settings re-encodes
  // or filters them: the file may be what a checkout wrote before the attribute came, or
  // the child may have written the blob's bytes over the checkout's. Nothing tells.
  const { asAtSpawn, attributes, filters } = readings;
  for (const path of found.blobBytes) {
    const a = attributes.get(path);
    if (asAtSpawn(path) && (a?.encoding || filters(a))) unknown.add(path); // tether:guard gate-blob-bytes
  }
  return unknown;
}

/** The paths whose conversions are weighed, by what they hold against the spawn HEAD's blob. */
function candidates(c: Converting): Candidates {
  const { now } = c;
  const { trees, recorded } = c.state;
  const judged = [...now].filter(([path, content]) => {
    const leaf = trees.before.get(path);
    return !recorded.has(path) && content.kind === "file" && leaf !== undefined &&
      REGULAR_MODES.has(leaf.mode) && leaf.oid !== content.raw;
  }).map(([path]) => path);
  // git's reading is asked for those, and for a path whose index entry or HEAD leaf is
  // unexplained (`git add` of a CRLF file).
  const toFilter = [
    ...new Set([
      ...[...now].filter(([path, content]) =>
        !recorded.has(path) && content.kind === "file" &&
        trees.before.get(path)?.oid !== undefined &&
        trees.before.get(path)?.oid !== content.raw
      ).map(([path]) => path),
      ...c.staging.keys(),
      ...c.committed.keys(),
    ]),
  ].filter((p) => now.get(p)?.kind === "file");
  const blobBytes = [...now].filter(([path, content]) => {
    const leaf = trees.before.get(path);
    return !recorded.has(path) && content.kind === "file" && leaf !== undefined &&
      REGULAR_MODES.has(leaf.mode) && leaf.oid === content.raw;
  }).map(([path]) => path);
  return { judged, toFilter, blobBytes };
}

/** Read the settings, the candidates' attributes and git's reading; say which are the spawn's. */
async function readReadings(repo: LiveRepo, c: Converting, found: Candidates): Promise<Readings> {
  const { git } = c;
  const { dirs } = c.state;
  const { toFilter, judged, blobBytes } = found;
  // With the filter drivers the config defines: an attribute naming another runs nothing.
  const [settingsRead, defined] = await Promise.all([c.state.conversions, readDrivers(repo.top)]);
  const settings: ConversionSettings = { ...settingsRead, drivers: new Set(defined.filters) };
  const filters = (a: { filter: boolean; driver?: string } | undefined) =>
    a?.filter === true && a.driver !== undefined && settings.drivers!.has(a.driver);
  const settingsSame = git.conversions !== undefined &&
    git.conversions === settings.key; // tether:guard gate-conversions-same
  // The attributes, and git's reading of every such file, are read while the attributes
  // files are compared; which ids count is decided once all three are known.
  const attributesRead = readConversionAttributes(
    repo.top,
    [...toFilter, ...blobBytes],
    dirs.commonDir,
  );
  // Under the settings read (a child still at work cannot flip them in between).
  const filteredRead = readFilteredIds(repo.top, toFilter, settings.pins);
  const comparing = settingsSame
    ? attributeFilesSame(repo, [...toFilter, ...judged], settings, {
      now: c.now,
      trees: c.state.trees,
      pair: c.state.pair,
      spawnEntry: c.spawnEntry,
      indexByPath: c.indexByPath,
      dirs,
    })
    : Promise.resolve(() => "changed" as const);
  // All end before any failure is thrown: no git is left running.
  await Promise.allSettled([comparing, attributesRead, filteredRead]);
  const [reading, attributes, filtered] = [
    await comparing,
    await attributesRead,
    await filteredRead,
  ];
  const asAtSpawn = (path: string) => settingsSame && reading(path) === "same"; // tether:guard gate-attributes-same
  return { settings, settingsSame, reading, attributes, filtered, asAtSpawn, filters };
}

/** Take git's reading as a file's filtered id where it is the spawn's and no `ident` collapses. */
function takeFilteredIds(
  now: Map<string, PathContent>,
  toFilter: readonly string[],
  readings: Readings,
): void {
  const { attributes, filtered, asAtSpawn } = readings;
  for (const path of toFilter) {
    const content = now.get(path);
    const id = filtered?.get(path);
    // Not under `ident`: git collapses `$Id: … $`, so an edit inside one reads as the blob.
    if (content?.kind !== "file" || id === undefined || !asAtSpawn(path)) continue;
    if (!attributes.get(path)?.ident) content.filtered = id; // tether:guard gate-filtered-ident
  }
}

/** Prove unchanged the files holding what a checkout of their blob writes with `$Id$` expanded. */
async function proveIdentCheckouts(
  repo: LiveRepo,
  c: Converting,
  judged: readonly string[],
  readings: Readings,
): Promise<void> {
  const { asAtSpawn, attributes, settings } = readings;
  // What the spawn's settings write for the `ident` files among them.
  const identFiles = judged.filter((p) => asAtSpawn(p) && attributes.get(p)?.ident);
  const lineEnds = await readConversionAttributes(
    repo.top,
    identFiles,
    c.state.dirs.commonDir,
    true,
  );
  // Under `ident`, what a checkout writes is computed from the blob (git's reading
  // collapses `$Id: … $`), with CRLF where the spawn's settings write it; otherwise an
  // expanded keyword is the only form taken, whatever the attributes say now. Line ends a
  // child may have rewritten are not: a CRLF rewrite must not pass for a checkout where
  // nothing writes CRLF, so such a file cannot be told.
  await proveCheckouts(repo, c.now, judged, c.state.trees, (path) => {
    if (!asAtSpawn(path)) return { ident: true, crlf: false };
    const a = lineEnds.get(path);
    const ident = a?.ident ?? false;
    const crlf = a === undefined ? false : conversionOf(
      { ...a, filter: "unspecified", encoding: "unspecified", ident: "unspecified" },
      settings,
    ).crlf;
    return { ident, crlf: ident && crlf };
  });
}

/**
 * The judged files not shown unchanged whose change git's reading tells; those it cannot
 * tell are added to `unknown`.
 */
async function suspectsOf(
  repo: LiveRepo,
  c: Converting,
  judged: readonly string[],
  readings: Readings,
  unknown: Set<string>,
): Promise<string[]> {
  const { now } = c;
  const { trees } = c.state;
  const { settingsSame, reading, attributes, filtered, asAtSpawn, filters } = readings;
  const rawTells = await rawBytesTell(repo, c, judged, readings);
  return judged.filter((path) => {
    const content = now.get(path);
    if (content?.kind !== "file" || content.filtered === trees.before.get(path)!.oid) {
      return false;
    }
    const a = attributes.get(path);
    const told = settingsSame && (reading(path) === "identity" || rawTells.has(path)) ||
      asAtSpawn(path) && !filters(a) && (content.filtered !== undefined || a?.ident);
    if (!told) unknown.add(path); // tether:guard gate-unknown
    // git's own reading of an `ident` file collapses `$Id: … $`: the same as the blob, the
    // file differs from it inside such a keyword alone (the id a commit left stale, or an
    // edit hidden there), or in line ends, and nothing tells which.
    else if (a?.ident && filtered?.get(path) === trees.before.get(path)!.oid) { // tether:guard gate-ident-collapsed
      unknown.add(path);
      return false;
    }
    return told;
  });
}

/**
 * The judged files whose raw bytes tell: the spawn's checkout was `text=auto` alone and
 * git takes the blob for binary, so it was written as it is.
 */
function rawBytesTell(
  repo: LiveRepo,
  c: Converting,
  judged: readonly string[],
  readings: Readings,
): Promise<Set<string>> {
  const { now } = c;
  const { trees } = c.state;
  // What a path not shown unchanged holds may still be what a checkout of the blob wrote
  // under other settings (CRLF, `$Id$` expanded, UTF-16): the settings may have changed
  // before the spawn (`core.autocrlf` turned off after a CRLF checkout, an upstream commit
  // that drops `eol=crlf`), and git takes such a file for clean by its stat data, so the
  // snapshot has no record of it. Nothing then tells whether it changed: a touch or an
  // index-only step is no change, so stat data cannot say either.
  // Where the spawn's checkout was `text=auto` alone, a blob git takes for binary was written
  // as it is: its raw bytes tell (a child that marks `*.png binary` while editing a PNG
  // under `core.autocrlf=true` has its edit confirmed).
  const autoPaths = readings.settingsSame
    ? judged.filter((p) =>
      readings.reading(p) === "auto" && now.get(p)?.kind === "file" &&
      (now.get(p) as { filtered?: string }).filtered !== trees.before.get(p)!.oid
    )
    : [];
  return writtenAsTheBlob(repo, autoPaths, trees);
}
