/**
 * The permission policy: one instance per run, shared by every agent. Turns a tool call into
 * allow / deny / ask from the mode, workspace trust and session approvals. Three rules hold in every
 * mode, bypassPermissions included: file paths stay inside WORKDIR, the bash deny list, and a web_fetch to
 * this machine or a private network is asked about by host (web-fetch-policy.ts). A tool that changes nothing but
 * sends its input out (web_fetch, a read-only MCP tool) is asked in plan mode too (read-only-tool-policy.ts). A write
 * to a protected path (.git, .claude, .mcp.json, .vscode…: protected-paths.ts) is asked in acceptEdits mode too, and
 * only an answer naming that path lifts the question (not one for all writes, nor a whole-tool rule).
 */
import { AgentGrants, type ParentOf } from './agent-grants';
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { relative } from 'node:path';
import { resolveInside } from '../tools/path-confinement';
import { checkBashCommand } from './bash-deny-list';
import { PROTECTED_WHY, protectedTarget } from './protected-paths';
import { readOnlyToolVerdict, serverRuleOf } from './read-only-tool-policy';
import type { ToolRules } from './tool-rules';
import type { PermissionVerdict, ToolCallRequest } from './types';
import { fetchHostOf, privateDestinationVerdict, WEB_FETCH, webFetchVerdict } from './web-fetch-policy';
import type { PermissionMode } from '../vocabulary';

export interface PermissionPolicyOptions {
  workdir: string;
  mode: PermissionMode;
  /** An untrusted workspace (e.g. a freshly cloned repo) gets read-only agents. Default true. */
  trusted?: boolean;
  /** Allowed / disallowed tools (`--allowed-tools`, `--disallowed-tools`). */
  rules?: ToolRules;
  /** Each agent's parent (the session's agents): what "for this task's subagents" answers reach (agent-grants.ts). */
  parentOf?: ParentOf;
  /** An agent's own WORKDIR when it is not `workdir` (an isolated subagent's worktree): its paths stay inside that. */
  workdirOf?: (agentId: string) => string | undefined;
}

/** The shell command of an exec call, when its input carries one. */
function commandOf(req: ToolCallRequest): string | undefined {
  const input = req.input;
  if (typeof input !== 'object' || input === null) return undefined;
  const command = (input as { command?: unknown }).command;
  return typeof command === 'string' ? command : undefined;
}

/** The agent a task call starts: its `subagent_type`, else the default agent (agent-files' DEFAULT_AGENT). */
function subagentTypeOf(req: ToolCallRequest): string | undefined {
  const input = req.input;
  if (typeof input !== 'object' || input === null || (input as { fork?: unknown }).fork === true) return undefined;
  const type = (input as { subagent_type?: unknown }).subagent_type;
  return typeof type === 'string' && type.trim() ? type : 'general-purpose';
}

/** The write tools of an agent's memory folder (delegation/agent-memory.ts MEMORY_TOOLS), confined to it by themselves. */
const MEMORY_WRITES = new Set(['memory_write', 'memory_edit']);

const STRICTNESS: Record<PermissionMode, number> = { bypassPermissions: 0, acceptEdits: 1, default: 2, plan: 3 };

export class PermissionPolicy {
  private currentMode: PermissionMode;
  private readonly workdir: string;
  private trusted: boolean;
  /** "Allow for this session" answers: exact commands per exec tool. */
  private readonly sessionCommands = new Set<string>();
  private sessionWrites = false;
  /** "Allow for this session" answers for external tools (MCP tools), by tool name; and by server (`mcp__docs`). */
  private readonly sessionTools = new Set<string>();
  private readonly sessionServers = new Set<string>();
  /** "Allow for this session" answers for web_fetch, by host; and for private destinations, by host. */
  private readonly sessionHosts = new Set<string>();
  private readonly sessionPrivateHosts = new Set<string>();
  private readonly rules: ToolRules | undefined;
  /** "For this subagent" / "for this task's subagents" answers. */
  private readonly agentGrants: AgentGrants;
  /** The protected paths (relative) a write names, while its question is open: what an answer to it allows. */
  private readonly guardedOf = new WeakMap<ToolCallRequest, string[]>();
  /** "Allow for this session" answers to protected writes, by path. */
  private readonly sessionGuarded = new Set<string>();
  private readonly realRoots = new Map<string, Promise<string>>();
  private readonly workdirOf: (agentId: string) => string | undefined;
  /** Tools a loaded skill pre-approves for one agent (its `allowed-tools`), each behind its source's trust. */
  private readonly agentAllowed = new Map<string, { rules: ToolRules; admitted: () => Promise<boolean> }[]>();

  constructor(opts: PermissionPolicyOptions) {
    this.rules = opts.rules;
    this.agentGrants = new AgentGrants(opts.parentOf ?? (() => undefined));
    this.workdir = opts.workdir;
    this.workdirOf = opts.workdirOf ?? (() => undefined);
    this.currentMode = opts.mode;
    this.trusted = opts.trusted ?? true;
  }

  get mode(): PermissionMode {
    return this.currentMode;
  }

  setMode(mode: PermissionMode): void {
    this.currentMode = mode;
  }

  /** The editor can grant workspace trust while a session is open. */
  setTrusted(trusted: boolean): void {
    this.trusted = trusted;
  }

  get isTrusted(): boolean {
    return this.trusted;
  }

  /**
   * Records an "Allow for this session" answer: bash → that exact command; writes → all writes inside WORKDIR;
   * web_fetch → that host (a private destination's answer covers the host's first question too); `server`: every
   * tool of the MCP tool's server.
   */
  rememberForSession(req: ToolCallRequest, scope: 'call' | 'server' = 'call'): void {
    const guarded = this.guardedOf.get(req);
    if (guarded) return void guarded.forEach((p) => this.sessionGuarded.add(p));
    const server = scope === 'server' && req.kind === 'external' ? serverRuleOf(req.toolName) : undefined;
    if (server !== undefined) return void this.sessionServers.add(server);
    const host = req.toolName === WEB_FETCH ? fetchHostOf(req) : undefined;
    if (host !== undefined) {
      if (req.privateDestination) this.sessionPrivateHosts.add(host);
      this.sessionHosts.add(host);
    } else if (req.kind === 'write') this.sessionWrites = true;
    else if (req.kind === 'external') this.sessionTools.add(req.toolName);
    else if (req.kind === 'exec') {
      const command = commandOf(req);
      if (command !== undefined) this.sessionCommands.add(`${req.toolName}\0${command}`);
    }
  }

  /** Records a "for this subagent" (`agent`) or "for this task's subagents" (`task`) answer: agent-grants.ts. */
  rememberForAgent(req: ToolCallRequest, scope: 'agent' | 'task'): void {
    this.agentGrants.remember(req, scope, this.guardedKey(req));
  }

  /** An agent grant's key for a protected write: those paths only. */
  private guardedKey(req: ToolCallRequest): string | undefined {
    const guarded = this.guardedOf.get(req);
    return guarded ? `write\0${[...guarded].sort().join('\0')}` : undefined;
  }

  /**
   * A skill's `allowed-tools` for the agent that loaded it (skills/skill-tool.ts), for the rest of that agent's life:
   * its calls of those tools skip the question as an `--allowed-tools` rule's do (what is refused stays refused, a
   * protected path is still asked). `admitted`: the rules count only while it says yes (a project skill: the folder's trust).
   */
  allowForAgent(agentId: string, rules: ToolRules, admitted: () => Promise<boolean> = async () => true): void {
    const list = this.agentAllowed.get(agentId) ?? [];
    list.push({ rules, admitted });
    this.agentAllowed.set(agentId, list);
  }

  private async allowedForAgent(req: ToolCallRequest): Promise<boolean> {
    for (const { rules, admitted } of this.agentAllowed.get(req.agent.agentId) ?? []) {
      if (rules.allows(req.toolName) && (await admitted())) return true;
    }
    return false;
  }

  /** Whether the model is offered the tool at all (a disallowed one is not). */
  offers(toolName: string): boolean {
    return !this.rules?.disallows(toolName);
  }

  /** An `Agent(name)` / `Task(name)` deny rule names this agent type: it is not offered, and a task call for it is refused. */
  deniesAgent(name: string): boolean {
    return this.rules?.deniesAgent(name) === true;
  }

  async check(req: ToolCallRequest): Promise<PermissionVerdict> {
    if (this.rules?.disallows(req.toolName)) return { behavior: 'deny', reason: `${req.toolName} is a disallowed tool in this session` };
    const agentType = req.toolName === 'task' ? subagentTypeOf(req) : undefined;
    if (agentType !== undefined && this.deniesAgent(agentType)) return { behavior: 'deny', reason: `the agent type "${agentType}" is denied by a rule of this session (Agent(${agentType}))` };
    // In every mode; only a rule or an answer naming the host skips this question (not a whole-tool rule).
    if (req.privateDestination) {
      return privateDestinationVerdict(req.privateDestination, this.rules?.allowsHost(req.toolName, req.privateDestination.host) === true, this.sessionPrivateHosts);
    }
    this.guardedOf.delete(req);
    const verdict = await this.decide(req);
    // A protected path: only an answer that named it skips the question (decide() knows the session's).
    const guardedKey = this.guardedKey(req);
    if (verdict.behavior === 'ask' && guardedKey !== undefined) return this.agentGrants.covers(req, guardedKey) ? { behavior: 'allow' } : verdict;
    // An allowed tool (or host) skips only the question: whatever decide() refused stays refused.
    if (verdict.behavior === 'ask' && this.rules?.allows(req.toolName)) return { behavior: 'allow' };
    if (verdict.behavior === 'ask' && (await this.allowedForAgent(req))) return { behavior: 'allow' };
    const host = req.toolName === WEB_FETCH ? fetchHostOf(req) : undefined;
    if (verdict.behavior === 'ask' && host !== undefined && this.rules?.allowsHost(req.toolName, host)) return { behavior: 'allow' };
    if (verdict.behavior === 'ask' && this.agentGrants.covers(req)) return { behavior: 'allow' };
    return verdict;
  }

  private async decide(req: ToolCallRequest): Promise<PermissionVerdict> {
    const targets: string[] = [];
    const workdir = this.workdirOf(req.agent.agentId) ?? this.workdir;
    for (const p of req.paths) {
      const where = await resolveInside(workdir, p);
      if (!where.ok) return { behavior: 'deny', reason: `${req.toolName}: ${where.reason}` };
      targets.push(where.absPath);
    }

    const command = req.kind === 'exec' ? (commandOf(req) ?? req.summary) : undefined;
    if (command !== undefined) {
      // Commands start in WORKDIR: `rm -rf ..` from a workspace directly in HOME is HOME.
      const verdict = checkBashCommand(command, { cwd: workdir, home: homedir() });
      if (verdict.denied) return { behavior: 'deny', reason: verdict.reason };
    }

    // An external tool (MCP, the web) may change things elsewhere unless it says it does not.
    const mutates = req.kind === 'write' || req.kind === 'exec' || (req.kind === 'external' && !req.readOnly);
    if (mutates && !this.trusted) {
      return {
        behavior: 'deny',
        reason: `workspace is not trusted: agents are read-only here, so ${req.toolName} (${req.kind}) is not allowed; trust the workspace to enable edits and commands`,
      };
    }

    // An agent definition may narrow the mode for its agent, never widen it.
    const mode = req.agent.mode && STRICTNESS[req.agent.mode] > STRICTNESS[this.currentMode] ? req.agent.mode : this.currentMode;
    if (req.toolName === WEB_FETCH && req.kind === 'external') return webFetchVerdict(req, mode, this.trusted, this.sessionHosts);
    if (req.kind === 'external') return this.checkExternal(req, mode);
    if (!mutates) return { behavior: 'allow' };
    // An agent's memory tools (delegation/agent-memory.ts) reach only its own memory folder: no question, never in plan.
    if (req.kind === 'write' && MEMORY_WRITES.has(req.toolName)) {
      return mode === 'plan' ? { behavior: 'deny', reason: `plan mode: only read-only tools may run, so ${req.toolName} is not allowed` } : { behavior: 'allow' };
    }
    if (mode === 'plan') {
      return {
        behavior: 'deny',
        reason: `plan mode: only read-only tools may run, so ${req.toolName} (${req.kind}) is not allowed; present the plan instead`,
      };
    }
    if (mode === 'bypassPermissions') return { behavior: 'allow' };

    if (req.kind === 'write') {
      const guarded = await this.guardedAsk(req, targets, workdir);
      if (guarded) return guarded;
      if (mode === 'acceptEdits' || this.sessionWrites) return { behavior: 'allow' };
      return { behavior: 'ask', reason: `${req.toolName} wants to change ${req.summary || req.paths.join(', ')}` };
    }
    if (command !== undefined && this.sessionCommands.has(`${req.toolName}\0${command}`)) return { behavior: 'allow' };
    return { behavior: 'ask', reason: `${req.toolName} wants to run: ${req.summary}` };
  }

  /** The question for a write to protected paths not yet allowed for the session (recorded for the answer), if any. */
  private async guardedAsk(req: ToolCallRequest, targets: string[], workdir: string): Promise<PermissionVerdict | undefined> {
    let real = this.realRoots.get(workdir);
    if (!real) this.realRoots.set(workdir, (real = realpath(workdir).catch(() => workdir)));
    const root = await real;
    const hits = targets.flatMap((t) => {
      const hit = protectedTarget(root, t);
      return hit ? [{ rel: relative(root, t), ...hit }] : [];
    });
    const open = hits.filter((h) => !this.sessionGuarded.has(h.rel));
    const first = open[0];
    if (!first) return undefined;
    this.guardedOf.set(req, open.map((h) => h.rel));
    return { behavior: 'ask', reason: `${req.toolName} wants to change ${open.map((h) => h.rel).join(', ')}, ${PROTECTED_WHY} (${first.shown}: ${first.entry.reason})` };
  }

  /** External tools: asked in default and acceptEdits, allowed in bypassPermissions, refused in plan; a read-only one is asked in plan. */
  private checkExternal(req: ToolCallRequest, mode: PermissionMode): PermissionVerdict {
    const answered = this.sessionTools.has(req.toolName) || this.sessionServers.has(serverRuleOf(req.toolName) ?? '');
    if (req.readOnly) return readOnlyToolVerdict(req, mode, this.trusted, answered);
    if (mode === 'bypassPermissions') return { behavior: 'allow' };
    if (mode === 'plan') {
      return { behavior: 'deny', reason: `plan mode: ${req.toolName} may change things outside the workspace and does not declare itself read-only; present the plan instead` };
    }
    if (answered) return { behavior: 'allow' };
    return { behavior: 'ask', reason: `${req.toolName} reaches outside Delegate${req.summary ? `: ${req.summary}` : ''}` };
  }
}
