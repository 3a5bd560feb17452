/**
 * Driving the real Claude Code CLI offline in tests: the pinned binary, a scripted stand-in for
 * the Messages API, one sealed `-p` run, the scenario repository, and hook logging.
 *
 * @example A test that skips where the CLI cannot be installed
 * ```ts ignore
 * import { claudeBinary, runClaude, scenarioRepo } from "./_claude/mod.ts";
 * const binary = await claudeBinary();
 * const skip = typeof binary === "string" ? undefined : binary.skip;
 * if (skip) console.log(`skipping Claude Code tests: ${skip}`);
 * Deno.test({ name: "parent answers", ignore: skip !== undefined }, async () => {
 *   const scenario = await scenarioRepo();
 *   try {
 *     const run = await runClaude({
 *       cwd: scenario.repo,
 *       prompt: "TASK",
 *       script: ({ prompt }) => prompt === "TASK" ? { text: "ok" } : undefined,
 *     });
 *     if (run.code !== 0) throw new Error(run.stderr);
 *   } finally {
 *     await scenario.cleanup();
 *   }
 * });
 * ```
 *
 * @module
 */
export { CLAUDE_CODE_VERSION, claudeBinary, claudeCacheDir, type Skip } from "./cli.ts";
export { type Api, type ApiRequest, startApi, UNSCRIPTED_TEXT, WHOLE_TEXT } from "./api.ts";
export {
  type Block,
  conversationPrompt,
  conversationStep,
  type Message,
  type MessagesBody,
  type Reply,
  requestText,
  type Script,
  systemMessages,
  type ToolCall,
  toolResults,
  type Turn,
} from "./messages.ts";
export { type ClaudeRun, type ClaudeRunOptions, runClaude } from "./run.ts";
export { PARENT_WORK, type ScenarioRepo, scenarioRepo } from "./repo.ts";
export {
  eventLabel,
  type HookCommand,
  type HookEvent,
  type HookSettings,
  loggingHook,
  readHookLog,
  shellQuote,
  writeSettings,
} from "./hooks.ts";
export { runProcesses } from "./procs.ts";
