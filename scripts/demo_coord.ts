/**
 * The seed's "what success looks like" trial, scripted in a throwaway repository: W1 and
 * W2 work blind, freeze, Primary releases both SHAs in STATUS, W3 receives exactly those
 * artifacts through coord, compares them, challenges W1 and W2, and they reply. Every
 * message travels through `coord`; nobody copies one by hand.
 *
 * Run alone: `deno run --allow-run --allow-read --allow-write --allow-env scripts/demo_coord.ts`.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { PERMISSIONS } from "../src/permissions.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const decoder = new TextDecoder();
const ENV = {
  GIT_AUTHOR_NAME: "Demo",
  GIT_AUTHOR_EMAIL: "demo@example.invalid",
  GIT_COMMITTER_NAME: "Demo",
  GIT_COMMITTER_EMAIL: "demo@example.invalid",
};

async function git(cwd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", cwd, ...args],
    env: ENV,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (out.code !== 0) throw new Error(`git ${args.join(" ")}: ${decoder.decode(out.stderr)}`);
  return decoder.decode(out.stdout).trim();
}

type Lane = "Primary" | "W1" | "W2" | "W3";

/**
 * Run the scripted trial and print it as a reader wants to follow it.
 *
 * @returns When the trial is done (it throws if any step behaves otherwise than shown).
 */
export async function demoCoord(): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tether-demo-coord-" }));
  const dir: Record<Lane, string> = {
    Primary: join(root, "Primary"),
    W1: join(root, "W1"),
    W2: join(root, "W2"),
    W3: join(root, "W3"),
  };
  let step = 0;
  const say = (text: string) => console.log(`\n${++step}. ${text}`);
  const spawn = (lane: Lane, args: string[], body: string) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        ...PERMISSIONS.coord,
        join(ROOT, "coord.ts"),
        ...args,
      ],
      cwd: dir[lane],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    const writer = child.stdin.getWriter();
    return writer.write(new TextEncoder().encode(body)).then(() => writer.close()).then(() =>
      child.output()
    );
  };
  const shown = (lane: Lane, args: string[], body = "") =>
    `   ${lane}$ coord ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ")}${
      body ? `   <<< ${JSON.stringify(body.trim())}` : ""
    }`;
  const report = (result: Deno.CommandOutput, expect: "ok" | "refused") => {
    const stdout = decoder.decode(result.stdout).trimEnd();
    const stderr = decoder.decode(result.stderr).trimEnd();
    for (const line of (stdout || stderr).split("\n")) if (line) console.log(`     ${line}`);
    if ((expect === "ok") !== (result.code === 0)) {
      throw new Error(`step ${step}: expected ${expect}, got exit ${result.code}: ${stderr}`);
    }
    return stdout;
  };
  const coord = async (lane: Lane, args: string[], body = "", expect: "ok" | "refused" = "ok") => {
    const result = await spawn(lane, args, body);
    console.log(shown(lane, args, body));
    return report(result, expect);
  };
  /** Start `coord wait` in a lane, as an idle agent would; `returned()` shows what it printed. */
  const startWait = (lane: Lane) => {
    const args = ["wait", "E001", "--timeout", "2m"];
    const running = spawn(lane, args, "");
    console.log(`${shown(lane, args)}   (blocks: no polling, no daemon)`);
    return {
      returned: async () => {
        const result = await running;
        console.log(`   ${lane}'s coord wait returned:`);
        return report(result, "ok");
      },
    };
  };
  const commit = async (lane: Lane, file: string, text: string, message: string) => {
    await Deno.mkdir(join(dir[lane], file, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir[lane], file), text);
    await git(dir[lane], ["add", "-A"]);
    await git(dir[lane], ["commit", "-q", "-m", message]);
    return await git(dir[lane], ["rev-parse", "HEAD"]);
  };
  let base = "";
  const setStatus = async (extra: string) => {
    const header = `lane: W1 ../W1\nlane: W2 ../W2\nlane: W3 ../W3\nbase: ${base}\n`;
    await Deno.writeTextFile(
      join(dir.Primary, "STATUS"),
      `# E001 canonical status\n${header}${extra}`,
    );
    await git(dir.Primary, ["add", "STATUS"]);
    await git(dir.Primary, ["commit", "-q", "-m", "STATUS"]);
  };

  try {
    await Deno.mkdir(dir.Primary);
    await git(dir.Primary, ["init", "-q", "-b", "main"]);
    await git(dir.Primary, ["config", "commit.gpgsign", "false"]);
    base = await commit(
      "Primary",
      "problem.md",
      "Show that the sum of two odd numbers is even.\n",
      "E001: problem",
    );
    for (const lane of ["W1", "W2", "W3"] as const) {
      await git(dir.Primary, ["worktree", "add", "-q", "-b", lane.toLowerCase(), dir[lane], base]);
    }
    console.log(
      `A throwaway repository in ${root}: Primary (main worktree) and W1, W2, W3 (git worktree add).`,
    );

    say(
      "Primary opens E001: STATUS on main declares the lanes and keeps W1 and W2 blind (sealed).",
    );
    await setStatus("blind: W1 W2\n");
    await coord("Primary", ["status"]);

    say(
      "W1 and W2 work independently and talk only to Primary, who waits for news with coord wait.",
    );
    const primaryWaits = startWait("Primary");
    const a = await commit("W1", "proof/w1.md", "2a+1 + 2b+1 = 2(a+b+1).\n", "W1: direct proof");
    await coord("W1", [
      "send",
      "E001",
      "--to",
      "Primary",
      "--type",
      "NOTE",
      "--subject",
      "private derivation",
      "--provenance",
      "DERIVED_INDEPENDENTLY",
    ], "I tried parity tables first; the algebra is cleaner.\n");
    await primaryWaits.returned();
    const b = await commit(
      "W2",
      "proof/w2.md",
      "odd+odd: the units digits add to an even digit.\n",
      "W2: digit argument",
    );
    await coord("W2", [
      "send",
      "E001",
      "--to",
      "Primary",
      "--subject",
      "private progress",
      "--provenance",
      "DERIVED_INDEPENDENTLY",
    ], "Digit argument drafted.\n");

    say("Blindness holds: W2 cannot message W1, and W3 cannot even probe W1's commit.");
    await coord(
      "W2",
      ["send", "E001", "--to", "W1", "--subject", "what did you get?"],
      "",
      "refused",
    );
    await coord(
      "W3",
      [
        "handoff",
        "E001",
        "--to",
        "Primary",
        "--sha",
        a,
        "--path",
        "proof/w1.md",
        "--subject",
        "probe",
      ],
      "",
      "refused",
    );

    say("W1 and W2 freeze exact SHAs and hand them to Primary.");
    const h1 = await coord("W1", [
      "handoff",
      "E001",
      "--to",
      "Primary",
      "--sha",
      "HEAD",
      "--path",
      "proof/w1.md",
      "--subject",
      "frozen W1 result",
    ], "Frozen.\n");
    const h2 = await coord("W2", [
      "handoff",
      "E001",
      "--to",
      "Primary",
      "--sha",
      "HEAD",
      "--path",
      "proof/w2.md",
      "--subject",
      "frozen W2 result",
    ], "Frozen.\n");
    await coord("Primary", ["inbox", "E001", "--unacked"]);
    await coord("Primary", ["ack", h1]);
    await coord("Primary", ["ack", h2]);

    say(
      "Primary records the canonical release of exactly those SHAs (a commit to STATUS; coord never writes it).",
    );
    await setStatus(`blind: W1 W2\nreleased: W1 ${a}\nreleased: W2 ${b}\n`);

    say(
      "W3 receives exactly the released artifacts through coord (Primary hands them on; no human copies anything).",
    );
    const r1 = await coord("Primary", [
      "handoff",
      "E001",
      "--to",
      "W3",
      "--sha",
      a,
      "--path",
      "proof/w1.md",
      "--subject",
      "released W1 result",
      "--provenance",
      "CLAIMED",
    ], "Compare independently.\n");
    const r2 = await coord("Primary", [
      "handoff",
      "E001",
      "--to",
      "W3",
      "--sha",
      b,
      "--path",
      "proof/w2.md",
      "--subject",
      "released W2 result",
      "--provenance",
      "CLAIMED",
    ], "Compare independently.\n");
    await coord("W3", ["inbox", "E001"]);
    await coord("W3", ["read", r1]);
    await coord("W3", ["ack", r1]);
    await coord("W3", ["ack", r2]);

    say("Historical privacy: W3 still cannot read W1's private note to Primary.");
    await coord("W3", ["read", "E001-M0001"], "", "refused");

    say(
      "W3 compares the two artifacts at their exact SHAs, freezes a comparison, and challenges both lanes.",
    );
    console.log("   (W1 and W2 are idle, waiting for questions)");
    const w1Waits = startWait("W1");
    const w2Waits = startWait("W2");
    const w1Text = await git(dir.W3, ["show", `${a}:proof/w1.md`]);
    const w2Text = await git(dir.W3, ["show", `${b}:proof/w2.md`]);
    console.log(`   W3 reads ${a.slice(0, 12)}: ${w1Text}`);
    console.log(`   W3 reads ${b.slice(0, 12)}: ${w2Text}`);
    await commit(
      "W3",
      "comparison.md",
      "W1 algebraic and complete; W2 digit argument needs justification.\n",
      "W3: comparison",
    );
    const q1 = await coord("W3", [
      "send",
      "E001",
      "--to",
      "W1",
      "--type",
      "QUESTION",
      "--subject",
      "why is 2(a+b+1) even for negatives?",
      "--reply-to",
      r1,
      "--provenance",
      "DERIVED_INDEPENDENTLY",
    ], "Please state the domain of a and b.\n");
    const q2 = await coord("W3", [
      "send",
      "E001",
      "--to",
      "W2",
      "--type",
      "QUESTION",
      "--subject",
      "units digits of odd numbers add to even: prove it",
      "--provenance",
      "COUNTEREXAMPLE_FOUND",
    ], "Your step 2 is asserted, not shown.\n");

    say(
      "W1 and W2 wake up and reply directly to W3 (released lanes may talk with non-blind lanes).",
    );
    await w1Waits.returned();
    await w2Waits.returned();
    const w3Waits = startWait("W3");
    await coord("W1", ["inbox", "E001", "--unacked"]);
    await coord("W1", ["ack", q1]);
    await coord("W1", [
      "send",
      "E001",
      "--to",
      "W3",
      "--type",
      "REVIEW_RESULT",
      "--subject",
      "a, b are integers; 2k is even for every integer k",
      "--reply-to",
      q1,
    ], "Domain: all integers.\n");
    await w3Waits.returned();
    await coord("W2", ["ack", q2]);
    await coord("W2", [
      "send",
      "E001",
      "--to",
      "W3",
      "--type",
      "REVIEW_RESULT",
      "--subject",
      "odd units digits are 1,3,5,7,9; each pair sums even",
      "--reply-to",
      q2,
    ], "Case table added in a repair.\n");

    say("A repair commit does not cross automatically: W2's repair needs its own release.");
    const repair = await commit("W2", "proof/w2.md", "Case table of units digits.\n", "W2: repair");
    await coord(
      "W2",
      [
        "handoff",
        "E001",
        "--to",
        "W3",
        "--sha",
        repair,
        "--path",
        "proof/w2.md",
        "--subject",
        "repair",
      ],
      "",
      "refused",
    );
    await coord("W1", ["send", "E001", "--to", "W2", "--subject", "compare notes?"], "", "refused");

    say("Primary's read-only summary, by exception.");
    await coord("Primary", ["status"]);
    await coord("W3", ["inbox", "E001"]);
    console.log("\nThe owner copied zero messages: every exchange above went through coord.");
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await demoCoord();
