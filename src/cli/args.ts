/**
 * The CLI's flags (a stable contract, scripts depend on it). Parsing is cheap and loads nothing
 * heavy, so `--help` and usage errors answer at once.
 */
import { parseArgs } from 'node:util';
import type { SessionOverrides } from '../core/session';
import { ISOLATION_MODES, type IsolationMode, SANDBOX_MODES, type SandboxMode, PERMISSION_MODES, type PermissionMode, SETTING_SOURCES, type SettingSource, parseThinkingSetting } from '../core/vocabulary';

export type OutputFormat = 'text' | 'json' | 'stream-json';

/** The session settings a flag sets, passed to the settings resolver when given (session-overrides.ts). */
export const SESSION_FLAGS = [
  'model', 'thinking', 'maxTokens', 'contextWindow', 'maxRetryWait', 'permissionMode', 'allowedTools', 'disallowedTools', 'sandbox', 'isolation',
  'landCheck', 'allowNetwork', 'toolEnv', 'webSearch', 'maxTurns', 'subagentMaxTurns', 'maxParallel', 'maxDepth', 'subagentMaxTokens',
  'subagentTimeout', 'maxBudgetUsd', 'subagentModelCap', 'settingSources', 'hooks', 'mcpConfigs', 'strictMcpConfig',
] as const satisfies readonly (keyof SessionOverrides)[];

/**
 * What the command line says: the session settings its flags set (their meaning is SessionOverrides'; left out when
 * not given, the resolver has the defaults), and what only the CLI has.
 */
export interface CliOptions extends Pick<SessionOverrides, (typeof SESSION_FLAGS)[number]> {
  prompt: string;
  cwd: string;
  outputFormat: OutputFormat;
  /** `--output-schema`: a JSON Schema (inline JSON, or a file holding it) the run's answer must end with a value of. */
  outputSchema?: string;
  // Always given (a switch or a list): the flag's own default.
  allowNetwork: boolean;
  allowedTools: string[];
  disallowedTools: string[];
  toolEnv: string[];
  mcpConfigs: string[];
  strictMcpConfig: boolean;
  /** Run the settings files' hooks (`--no-hooks`: none). */
  hooks: boolean;
  verbose: boolean;
  /** Go on with this session (its transcript). */
  resume?: string;
  /** Go on with the most recent session started in `cwd`. */
  continueLast: boolean;
  /** Compact the (resumed) conversation before the prompt, or alone when there is no prompt. */
  compact: boolean;
  /** `--agent ID`: the prompt goes to that subagent of the resumed session (id or name), not the main agent. */
  agent?: string;
  /** `--trust-folder`: the folder's own hooks and .mcp.json servers run without asking (cli/folder-trust.ts). */
  trustFolder: boolean;
  /** `--confirm-fanout`: ask at the terminal before subagents start (cli/fanout-prompt.ts); never asked without it. */
  confirmFanout?: FanoutRuleFlag;
}

export type ParsedArgs = { kind: 'run'; options: CliOptions } | { kind: 'help' } | { kind: 'version' } | { kind: 'error'; message: string };

export const USAGE = `Usage: delegate -p PROMPT [options]
       delegate --resume ID | --continue  [-p PROMPT] [--compact]
       delegate --resume ID --agent AGENT -p MESSAGE   (a message to one of its subagents, which resumes)
       delegate revert --session ID --agent ID   (undo one subagent's file changes; see delegate revert --help)
       delegate acp [--model ID] [--permission-mode MODE]   (an Agent Client Protocol agent on stdio: Zed, JetBrains…)

Runs a coding agent in a folder; it can hand self-contained sub-jobs to subagents (the task tool).

Options:
  -p, --print PROMPT           the prompt (required; "-" reads it from stdin)
  --cwd DIR                    the workspace folder (default: the current folder)
  --output-format FORMAT       text (default) | json | stream-json
  --model ID                   the model (default: $DELEGATE_MODEL or claude-sonnet-5-5)
  --thinking LEVEL             extended thinking: off | low | medium | high | N (a budget in tokens, ≥ 1024)
                               (default: on where the model thinks, at its default effort); agent files'
                               thinking: / effort: set a subagent's own
  --max-tokens N               max_tokens of each request (default: from the model, e.g. 64000 for claude-sonnet-5-5)
  --max-turns N                turn cap of the main agent (default 50)
  --subagent-max-turns N       turn cap of each subagent (default 30)
  --max-parallel N             task calls run at once (default 4)
  --max-depth N                nesting depth of subagents (default 1: subagents cannot delegate)
  --subagent-max-tokens N      each subagent's token budget: then one last answer with tools off (status budget_exceeded)
  --subagent-timeout SECONDS   each subagent's wall-clock budget, the same way
  --max-budget-usd X           the whole run's budget in dollars (every agent; Claude prices built in, others:
                               DELEGATE_PRICES); a model without a price is refused
  --output-schema SCHEMA       a typed run: the answer ends with a JSON value this JSON Schema (inline JSON or a file)
                               accepts, asked again once, else the run fails; json output's structured_output has it
  --subagent-model-cap MODEL   the dearest model a task call may pick for its subagent: session (default: none
                               dearer than the session's model), none, or an alias or id ($DELEGATE_SUBAGENT_MODEL_CAP)
  --max-retry-wait SECONDS     the longest wait the API may ask for before a retry (a 429's retry-after; default 60,
                               or $DELEGATE_MAX_RETRY_WAIT): each wait is said on stderr, a longer one ends the run
  --permission-mode MODE       default | acceptEdits | plan | bypassPermissions (default: default)
  --sandbox MODE               auto (default): bash runs in bubblewrap where it can, else unconfined (said once);
                               on: bubblewrap or exit 2; off: no sandbox (the deny list still applies)
  --allow-network              sandboxed commands get the network: all of it (no per-host filter)
  --isolation MODE             where subagents work unless the call or agent file says: shared (default: this folder)
                               or worktree (each its own git worktree of the live tree; delegate land lands them)
  --land-check CMD             the command isolated subagents' combined changes must pass before delegate land lands any
  --tool-env NAME              let bash, hooks and MCP servers see NAME although it holds a credential (they never
                               get ANTHROPIC_API_KEY, cloud secrets, INPUT_*, a proxy's password… by default); repeatable
  --web-search MODE            auto (default: on with Anthropic's API, off with another ANTHROPIC_BASE_URL) | on | off
  --resume ID                  continue that session: same id, its conversation, its transcript appended
  -c, --continue               continue the most recent session started in --cwd
  --compact                    compact the resumed conversation now (alone, or before -p)
  --agent ID                   with --resume/--continue: send -p to that subagent (id or name) instead of the
                               main agent; a finished one resumes with its history and prints its new result
  --context-window N           the model's context window in tokens (default: from the model; or
                               $DELEGATE_CONTEXT_WINDOW); compaction starts at 80% of it
  --mcp-config FILE            MCP servers from FILE (Claude Code's format, or inline JSON), besides the folder's
                               .mcp.json, which is read too; repeatable; a named file's server wins over a same-named one
  --strict-mcp-config          only the --mcp-config servers (the folder's .mcp.json is not read)
  --allowed-tools LIST         tools whose calls are not asked about (Bash, Read, mcp__docs__search, mcp__docs, …;
                               commas or spaces); the deny list, paths and the sandbox still apply
  --disallowed-tools LIST      tools refused and not offered to the model (same names)
  --no-hooks                   do not run the hooks of .claude/settings*.json and ~/.claude/settings.json
  --trust-folder               run the folder's own hooks (.claude/settings*.json) and .mcp.json servers: they run
                               commands outside the sandbox, so without it Delegate asks once per folder in a
                               terminal (a yes is remembered) and skips them elsewhere, saying so in one line
  --confirm-fanout RULE        in a terminal, ask before subagents start (a list of them; run, run capped or
                               cancel): auto (3 or more at once) | always | never (the default)
  --setting-sources LIST       which of user,project,local settings and instruction files load (default: all;
                               "" loads none): hooks, AGENTS.md/CLAUDE.md, CLAUDE.local.md, ~/.claude/CLAUDE.md
  -v, --verbose                show subagents' tool calls, hook events and instruction files on stderr
  -h, --help                   this help
  --version                    the version

Environment: ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL, DELEGATE_MODEL, DELEGATE_CONTEXT_WINDOW,
DELEGATE_MAX_RETRY_WAIT, DELEGATE_SUBAGENT_MODEL_CAP, DELEGATE_PRICES ({"model-id": {"input": 3, "output": 15}}: $ per million tokens), XDG_DATA_HOME.
Transcripts: $XDG_DATA_HOME/delegate/sessions (default ~/.local/share/delegate/sessions).
Exit status: 0 finished (completed, max_turns or budget_exceeded), 1 error, 2 bad usage, 130 interrupted.`;

export function parseCliArgs(argv: string[], cwd: string): ParsedArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        print: { type: 'string', short: 'p' },
        cwd: { type: 'string' },
        'output-format': { type: 'string' },
        model: { type: 'string' },
        thinking: { type: 'string' },
        'max-tokens': { type: 'string' },
        'max-turns': { type: 'string' },
        'subagent-max-turns': { type: 'string' },
        'max-parallel': { type: 'string' },
        'max-depth': { type: 'string' },
        'subagent-max-tokens': { type: 'string' },
        'subagent-timeout': { type: 'string' },
        'max-budget-usd': { type: 'string' },
        'max-retry-wait': { type: 'string' },
        'subagent-model-cap': { type: 'string' },
        'output-schema': { type: 'string' },
        'permission-mode': { type: 'string' },
        sandbox: { type: 'string' },
        isolation: { type: 'string' },
        'land-check': { type: 'string' },
        'allow-network': { type: 'boolean' },
        'tool-env': { type: 'string', multiple: true },
        'web-search': { type: 'string' },
        verbose: { type: 'boolean', short: 'v' },
        resume: { type: 'string' },
        continue: { type: 'boolean', short: 'c' },
        compact: { type: 'boolean' },
        agent: { type: 'string' },
        'context-window': { type: 'string' },
        'mcp-config': { type: 'string', multiple: true },
        'strict-mcp-config': { type: 'boolean' },
        // Claude Code spells these in camelCase; both work.
        'allowed-tools': { type: 'string', multiple: true },
        allowedTools: { type: 'string', multiple: true },
        'disallowed-tools': { type: 'string', multiple: true },
        disallowedTools: { type: 'string', multiple: true },
        'no-hooks': { type: 'boolean' },
        'trust-folder': { type: 'boolean' },
        'confirm-fanout': { type: 'string' },
        'setting-sources': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    }));
  } catch (err) {
    return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const resuming = values.resume !== undefined || values.continue === true;
  if (values.resume !== undefined && values.continue) return { kind: 'error', message: '--resume and --continue cannot be combined' };
  if (values.resume === '') return { kind: 'error', message: '--resume needs a session id' };
  if (values.compact && !resuming) return { kind: 'error', message: '--compact needs a session: add --resume ID or --continue' };
  const hasPrompt = values.print !== undefined && values.print !== '';
  if (values.agent !== undefined) {
    if (values.agent.trim() === '') return { kind: 'error', message: '--agent needs a subagent id or name' };
    if (!resuming) return { kind: 'error', message: '--agent needs a session: add --resume ID or --continue' };
    if (!hasPrompt) return { kind: 'error', message: '--agent needs a message: -p "…"' };
    if (values.compact) return { kind: 'error', message: '--agent and --compact cannot be combined' };
    if (values['output-schema'] !== undefined) return { kind: 'error', message: '--agent and --output-schema cannot be combined (a subagent answers a message in prose)' };
  }
  if (!hasPrompt && !values.compact) return { kind: 'error', message: 'a prompt is required: delegate -p "…"' };

  const format = values['output-format'] ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'stream-json') {
    return { kind: 'error', message: `--output-format must be text, json or stream-json (got "${format}")` };
  }
  const mode = values['permission-mode'];
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    return { kind: 'error', message: `--permission-mode must be one of ${PERMISSION_MODES.join(', ')} (got "${mode}")` };
  }
  const webSearch = values['web-search'];
  if (webSearch !== undefined && webSearch !== 'auto' && webSearch !== 'on' && webSearch !== 'off') return { kind: 'error', message: `--web-search must be auto, on or off (got "${webSearch}")` };
  const sandbox = values.sandbox;
  if (sandbox !== undefined && !(SANDBOX_MODES as readonly string[]).includes(sandbox)) {
    return { kind: 'error', message: `--sandbox must be one of ${SANDBOX_MODES.join(', ')} (got "${sandbox}")` };
  }
  const isolation = values.isolation;
  if (isolation !== undefined && !(ISOLATION_MODES as readonly string[]).includes(isolation)) {
    return { kind: 'error', message: `--isolation must be one of ${ISOLATION_MODES.join(', ')} (got "${isolation}")` };
  }
  const sources = values['setting-sources']?.split(',').map((x) => x.trim()).filter(Boolean);
  const badSource = sources?.find((x) => !(SETTING_SOURCES as readonly string[]).includes(x));
  if (badSource !== undefined) return { kind: 'error', message: `--setting-sources takes a list of ${SETTING_SOURCES.join(', ')} (got "${badSource}")` };
  const budgetRaw = values['max-budget-usd'];
  const maxBudgetUsd = budgetRaw === undefined ? undefined : Number(budgetRaw);
  // Infinity (and 1e999) is no budget: refused like 0, not run unbounded.
  if (maxBudgetUsd !== undefined && !(maxBudgetUsd > 0 && Number.isFinite(maxBudgetUsd))) return { kind: 'error', message: `--max-budget-usd must be a positive number of dollars (got "${budgetRaw}")` };
  const numbers: Record<string, number | undefined> = {};
  for (const [flag, min] of [['max-turns', 1], ['subagent-max-turns', 1], ['max-parallel', 1], ['max-depth', 0], ['context-window', 1000], ['subagent-max-tokens', 1], ['subagent-timeout', 1], ['max-tokens', 1], ['max-retry-wait', 0]] as const) {
    const raw = values[flag];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) return { kind: 'error', message: `--${flag} must be an integer ≥ ${min} (got "${raw}")` };
    numbers[flag] = n;
  }
  const toolEnv = values['tool-env'] ?? [];
  const badName = toolEnv.find(notAName);
  if (badName !== undefined) return { kind: 'error', message: `--tool-env takes one variable name (got "${badName}")` };
  const thinking = values.thinking === undefined ? undefined : parseThinkingSetting(values.thinking);
  if (typeof thinking === 'object') return { kind: 'error', message: `--thinking: ${thinking.error}` };
  const fanout = values['confirm-fanout'];
  if (fanout !== undefined && !isFanoutRule(fanout)) return { kind: 'error', message: `--confirm-fanout must be auto, always or never (got "${fanout}")` };
  return {
    kind: 'run',
    options: {
      prompt: values.print ?? '',
      cwd: values.cwd ?? cwd,
      continueLast: values.continue ?? false,
      compact: values.compact ?? false,
      mcpConfigs: values['mcp-config'] ?? [],
      strictMcpConfig: values['strict-mcp-config'] ?? false,
      allowedTools: [...(values['allowed-tools'] ?? []), ...(values.allowedTools ?? [])],
      disallowedTools: [...(values['disallowed-tools'] ?? []), ...(values.disallowedTools ?? [])],
      ...(values.resume !== undefined ? { resume: values.resume } : {}),
      ...(values.agent !== undefined ? { agent: values.agent.trim() } : {}),
      ...(numbers['context-window'] !== undefined ? { contextWindow: numbers['context-window'] } : {}),
      outputFormat: format,
      ...(mode !== undefined ? { permissionMode: mode as PermissionMode } : {}),
      ...(sandbox !== undefined ? { sandbox: sandbox as SandboxMode } : {}),
      ...(isolation !== undefined ? { isolation: isolation as IsolationMode } : {}),
      ...(values['land-check']?.trim() ? { landCheck: values['land-check'].trim() } : {}),
      ...(webSearch !== undefined ? { webSearch } : {}),
      allowNetwork: values['allow-network'] ?? false,
      verbose: values.verbose ?? false,
      hooks: values['no-hooks'] !== true,
      trustFolder: values['trust-folder'] === true,
      ...(fanout !== undefined ? { confirmFanout: fanout } : {}),
      ...(sources !== undefined ? { settingSources: sources as SettingSource[] } : {}),
      toolEnv,
      ...(values.model ? { model: values.model } : {}),
      ...(thinking !== undefined ? { thinking } : {}),
      ...(numbers['max-tokens'] !== undefined ? { maxTokens: numbers['max-tokens'] } : {}),
      ...(numbers['max-turns'] !== undefined ? { maxTurns: numbers['max-turns'] } : {}),
      ...(numbers['subagent-max-turns'] !== undefined ? { subagentMaxTurns: numbers['subagent-max-turns'] } : {}),
      ...(numbers['max-parallel'] !== undefined ? { maxParallel: numbers['max-parallel'] } : {}),
      ...(numbers['max-depth'] !== undefined ? { maxDepth: numbers['max-depth'] } : {}),
      ...(numbers['subagent-max-tokens'] !== undefined ? { subagentMaxTokens: numbers['subagent-max-tokens'] } : {}),
      ...(numbers['subagent-timeout'] !== undefined ? { subagentTimeout: numbers['subagent-timeout'] } : {}),
      ...(maxBudgetUsd !== undefined ? { maxBudgetUsd } : {}),
      ...(values['output-schema']?.trim() ? { outputSchema: values['output-schema'].trim() } : {}),
      ...(values['subagent-model-cap']?.trim() ? { subagentModelCap: values['subagent-model-cap'].trim() } : {}),
      ...(numbers['max-retry-wait'] !== undefined ? { maxRetryWait: numbers['max-retry-wait'] } : {}),
    },
  };
}

export const ACP_USAGE = `Usage: delegate acp [--model ID] [--permission-mode MODE] [--tool-env NAME]… [--trust-folder] [--confirm-fanout RULE]

Runs Delegate as an Agent Client Protocol agent on stdin/stdout, for an editor that starts it (Zed, JetBrains
IDEs, Neovim's CodeCompanion, Emacs' agent-shell). The client gives each session its folder; the modes it offers
are the permission modes.

Options:
  --model ID                   the model (default: $DELEGATE_MODEL or claude-sonnet-5-5)
  --permission-mode MODE       the first mode of each session: default | acceptEdits | plan | bypassPermissions
  --tool-env NAME              let bash, hooks and MCP servers see NAME although it holds a credential; repeatable
  --trust-folder               run the hooks and .mcp.json servers of every session's folder without asking
                               (otherwise the client is asked once per folder at its first prompt; a yes is remembered)
  --confirm-fanout RULE        when the client is asked before subagents start (a card listing them): auto (default:
                               3 or more at once) | always | never
  -h, --help                   this help

Environment: ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN (required), ANTHROPIC_BASE_URL, DELEGATE_MODEL,
DELEGATE_MODEL_ALIASES, DELEGATE_CONTEXT_WINDOW, DELEGATE_MAX_RETRY_WAIT, DELEGATE_PRICES, MCP_TIMEOUT, XDG_DATA_HOME
(as for delegate -p; docs/settings.md).`;

export type ParsedAcpArgs = { kind: 'acp'; model?: string; mode?: PermissionMode; toolEnv: string[]; trustFolder: boolean; confirmFanout?: FanoutRuleFlag } | { kind: 'help' } | { kind: 'error'; message: string };

/** \`delegate acp\`'s few flags (the rest of a session's setup comes from the client and the folder). */
export function parseAcpArgs(argv: string[]): ParsedAcpArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: { model: { type: 'string' }, 'permission-mode': { type: 'string' }, 'tool-env': { type: 'string', multiple: true }, 'trust-folder': { type: 'boolean' }, 'confirm-fanout': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (err) {
    return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  }
  if (values.help) return { kind: 'help' };
  const mode = values['permission-mode'];
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    return { kind: 'error', message: `--permission-mode must be one of ${PERMISSION_MODES.join(', ')} (got "${mode}")` };
  }
  const toolEnv = values['tool-env'] ?? [];
  const badName = toolEnv.find(notAName);
  if (badName !== undefined) return { kind: 'error', message: `--tool-env takes one variable name (got "${badName}")` };
  const fanout = values['confirm-fanout'];
  if (fanout !== undefined && !isFanoutRule(fanout)) return { kind: 'error', message: `--confirm-fanout must be auto, always or never (got "${fanout}")` };
  return { kind: 'acp', toolEnv, trustFolder: values['trust-folder'] === true, ...(fanout !== undefined ? { confirmFanout: fanout } : {}), ...(mode !== undefined ? { mode: mode as PermissionMode } : {}), ...(values.model ? { model: values.model } : {}) };
}

/** `--confirm-fanout`'s values (the core's fan-out rules: delegation/fanout-review.ts). */
type FanoutRuleFlag = 'auto' | 'always' | 'never';
function isFanoutRule(value: string): value is FanoutRuleFlag {
  return value === 'auto' || value === 'always' || value === 'never';
}

/** `--tool-env`'s value is one variable's name: not empty, no `=`, no space. */
function notAName(name: string): boolean {
  return name === '' || /[=\s\0]/.test(name);
}
