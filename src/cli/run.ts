/**
 * One headless run: flags → the settings resolver (with the environment and the defaults) → session → output → exit code.
 * Loaded lazily by main.ts, since it pulls in the SDK.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isatty } from 'node:tty';
import type { CliOptions } from './args';
import { headlessApprover } from './headless-approver';
import { cliFolderTrust } from './folder-trust';
import { terminalFanout } from './fanout-prompt';
import { eventPrinter, resultObject, type Writers } from './output';
import { announceSandbox, sandboxNotice } from './sandbox-notice';
import { cliOverrides, unkeptBudget } from './session-overrides';
import { createAnthropicModel } from '../core/session/model';
import { createSession, PromptRefused, resolveSessionConfig, type AgentResult, type Session, resolveSandbox } from '../core/session';
import { agentFileCommands, folderCommands } from '../core/session/ports';
import { history, isRootEvent, isSessionId, SessionBusyError, type ResumeState, type SessionHistory } from '../core/session/history';

const EXIT = { ok: 0, error: 1, usage: 2, interrupted: 130 } as const;

export interface RunHooks {
  /** Called as soon as the session exists: the exit paths clean up its agents and process groups. */
  onSession?(session: Session): void;
  /** What runs instead of the prompt, once the session is open (`delegate land --resolve`); its exit code. */
  instead?(session: Session): Promise<number>;
}

export async function runCli(options: CliOptions, env: NodeJS.ProcessEnv, out: Writers, signal: AbortSignal, hooks: RunHooks = {}): Promise<number> {
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  const authToken = env.ANTHROPIC_AUTH_TOKEN?.trim();
  if (!apiKey && !authToken) {
    out.stderr('delegate: no API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)\n');
    return EXIT.error;
  }
  const workdir = resolve(options.cwd);
  const info = await stat(workdir).catch(() => undefined);
  if (!info?.isDirectory()) {
    out.stderr(`delegate: --cwd is not a folder: ${workdir}\n`);
    return EXIT.usage;
  }
  const sessions = history({ env, home: homedir() });
  const transcriptRoot = sessions.root;
  const resumed = await findSession(options, workdir, sessions);
  if (typeof resumed === 'string') {
    out.stderr(`delegate: ${resumed}\n`);
    return EXIT.usage;
  }
  if (options.sandbox === 'on') {
    // Required: known before anything is sent, so a machine without it stops here.
    const required = await resolveSandbox({ mode: 'on', allowNetwork: options.allowNetwork });
    if (required.kind === 'refused') {
      out.stderr(sandboxNotice(required, false) ?? '');
      return EXIT.usage;
    }
  }
  const resolved = await resolveSessionConfig({ cwd: workdir, env, overrides: { ...cliOverrides(options), transcriptRoot }, trusted: true, host: 'cli' });
  if ('error' in resolved) {
    out.stderr(`delegate: ${resolved.error}\n`);
    return EXIT.usage;
  }
  const { api, notes, transcriptRoot: root, ...settings } = resolved;
  const outputSchema = options.outputSchema !== undefined ? readOutputSchema(options.outputSchema, workdir) : undefined;
  if (typeof outputSchema === 'string') {
    out.stderr(`delegate: --output-schema: ${outputSchema}\n`);
    return EXIT.usage;
  }
  const unkept = unkeptBudget(options.maxBudgetUsd, settings.model.id, settings.limits.prices);
  if (unkept) {
    out.stderr(`delegate: ${unkept}\n`);
    return EXIT.usage;
  }
  for (const note of notes) out.stderr(`delegate: ${note}\n`);
  const model = createAnthropicModel({ ...api.credentials, ...(api.baseUrl ? { baseURL: api.baseUrl } : {}), retryWait: api.retryWait });
  // The folder's own hooks and servers run only where it is trusted: the flag, a remembered yes, or the question.
  const commands = [...folderCommands(workdir, settings.files.commandHooks, settings.tools.mcp, settings.files.skills), ...(await agentFileCommands(workdir, settings.files.agentFiles))];
  // isatty, not process.stdin.isTTY: the stdin getter opens a stream (~1.5 ms before the first request).
  const interactive = isatty(0) && isatty(2);
  // The fan-out card asks at the terminal: without one, a flag that cannot be honoured is said, not ignored.
  const fanoutRule = options.confirmFanout === 'never' ? undefined : options.confirmFanout;
  if (fanoutRule && !interactive) {
    out.stderr('delegate: --confirm-fanout asks at a terminal, and stdin or stderr is not one: leave it out (subagents then start unasked)\n');
    return EXIT.usage;
  }
  const fanout = fanoutRule ? { fanout: { prompt: terminalFanout(), rule: () => fanoutRule, confirmAboveUsd: () => undefined } } : {};
  const folderTrust = await cliFolderTrust({ workdir, commands, trustFlag: options.trustFolder, env, out, signal, interactive });
  if (folderTrust === 'interrupted') return EXIT.interrupted;
  let session: Session;
  try {
    session = await createSession({
      ...settings,
      persistence: { transcriptRoot: root, ...(resumed ? { resume: resumed } : {}) },
      ports: { model, approver: headlessApprover, ...(folderTrust ? { folderTrust } : {}), ...fanout },
    });
  } catch (err) {
    if (!(err instanceof SessionBusyError)) throw err;
    out.stderr(`delegate: ${err.message}\n`);
    return EXIT.usage;
  }
  hooks.onSession?.(session);
  for (const warning of session.toolRuleWarnings) out.stderr(`delegate: ${warning}\n`);
  const sandboxSaid = await announceSandbox(session, options.verbose, out);
  session.subscribe(eventPrinter(options.outputFormat, options.verbose, out));
  if (options.compact) {
    const code = await compactNow(session, options, out, signal);
    if (code !== EXIT.ok || !options.prompt) {
      session.close();
      return code;
    }
  }
  if (hooks.instead) {
    const code = await hooks.instead(session).finally(() => session.close());
    await sandboxSaid();
    return code;
  }
  const result = options.agent !== undefined ? await messageAgent(session, options.agent, options.prompt, signal, out) : await runPrompt(session, options.prompt, signal, out, outputSchema ? { outputSchema } : {});
  if (result === undefined) {
    session.close();
    return EXIT.usage;
  }
  session.close();
  await sandboxSaid();

  if (options.outputFormat === 'text') {
    if (result.result) await out.stdout(result.result.endsWith('\n') ? result.result : `${result.result}\n`);
  } else {
    await out.stdout(JSON.stringify(resultObject(result, session.id, session.transcript.file, (await session.status()).sandbox)) + '\n');
  }
  switch (result.status) {
    case 'completed':
      return EXIT.ok;
    case 'max_turns':
      out.stderr(`delegate: stopped at the turn limit (${result.turns - 1} turns); the answer may be incomplete\n`);
      return EXIT.ok;
    case 'budget_exceeded':
      out.stderr(`delegate: stopped at its budget (${result.error ?? 'budget reached'}); the answer may be incomplete\n`);
      return EXIT.ok;
    case 'cancelled':
      out.stderr(`delegate: interrupted; transcript: ${session.transcript.file}\n`);
      return EXIT.interrupted;
    case 'error':
      out.stderr(`delegate: ${result.error ?? 'the run failed'} (transcript: ${session.transcript.file})\n`);
      return EXIT.error;
  }
}

/** The prompt to the main agent; undefined (said on stderr) when the session refuses it (empty, too big for the window). */
async function runPrompt(session: Session, prompt: string, signal: AbortSignal, out: Writers, options: Parameters<Session['run']>[2]): Promise<AgentResult | undefined> {
  try {
    return await session.run(prompt, signal, options);
  } catch (err) {
    if (!(err instanceof PromptRefused)) throw err;
    out.stderr(`delegate: ${err.message}\n`);
    return undefined;
  }
}

/** `--agent ID`: the prompt to one subagent of the resumed session; undefined (said on stderr) when there is no such one. */
async function messageAgent(session: Session, agent: string, message: string, signal: AbortSignal, out: Writers): Promise<AgentResult | undefined> {
  try {
    const result = await session.messageSubagent(agent, message, signal);
    // Another process would hold the session's lock: a subagent running here is this process's own (none, headless).
    if (result === 'queued') throw new Error(`the subagent ${agent} is running`);
    return result;
  } catch (err) {
    out.stderr(`delegate: ${err instanceof Error ? err.message : String(err)}\n`);
    return undefined;
  }
}

/** The session `--resume`/`--continue` name, rebuilt from its transcript; a one-line reason when there is none. */
async function findSession(options: CliOptions, workdir: string, sessions: SessionHistory): Promise<ResumeState | string | undefined> {
  if (options.resume === undefined && !options.continueLast) return undefined;
  let id = options.resume;
  if (id === undefined) {
    id = (await sessions.list({ cwd: workdir }))[0]?.id;
    if (id === undefined) return `no session to continue in ${workdir} (transcripts: ${sessions.root})`;
  }
  if (!isSessionId(id)) return `not a session id: "${id}"`;
  return (await sessions.resume(id)) ?? `no session "${id}" in ${sessions.root}`;
}

/** `--compact`: compacts the resumed conversation and says what it did. */
async function compactNow(session: Session, options: CliOptions, out: Writers, signal: AbortSignal): Promise<number> {
  let line: { tokens_before: number; tokens_after: number } | undefined;
  const stop = session.subscribe((e) => {
    if (e.type === 'compacted' && isRootEvent(e)) line = { tokens_before: e.tokensBefore, tokens_after: e.tokensAfter };
  });
  try {
    await session.compact(signal);
  } catch (err) {
    out.stderr(`delegate: compaction failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.error;
  } finally {
    stop();
  }
  const what = line ? `compacted: ${line.tokens_before.toLocaleString('en-US')} → ${line.tokens_after.toLocaleString('en-US')} tokens` : 'nothing to compact';
  if (options.outputFormat === 'text' || options.prompt) out.stderr(`delegate: session ${session.id}: ${what}\n`);
  else await out.stdout(JSON.stringify({ type: 'compacted', session_id: session.id, ...(line ?? { tokens_before: 0, tokens_after: 0 }), compacted: line !== undefined }) + '\n');
  return EXIT.ok;
}

/** `--output-schema`: inline JSON (it starts with `{`), else a file (relative to --cwd) holding it; a one-line reason otherwise. */
function readOutputSchema(value: string, workdir: string): Record<string, unknown> | string {
  let text = value;
  if (!value.startsWith('{')) {
    try {
      text = readFileSync(resolve(workdir, value), 'utf8');
    } catch (err) {
      return `not inline JSON, and the file cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)} (${value})`;
    }
  }
  try {
    const schema = JSON.parse(text) as unknown;
    if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) return schema as Record<string, unknown>;
    return 'must be a JSON Schema object ({"type": "object", …})';
  } catch (err) {
    return `not JSON: ${err instanceof Error ? err.message : String(err)}`;
  }
}
