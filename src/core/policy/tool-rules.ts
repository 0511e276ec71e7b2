/**
 * Allowed and disallowed tools (`--allowed-tools`, `--disallowed-tools`; the editor could feed the same lists):
 *
 *   disallowed ──▶ refused in every mode, and not offered to the model at all (`task`: no subagents)
 *   allowed    ──▶ an "ask" becomes "allow"; what is refused stays refused (the bash deny list, paths outside
 *                  the workspace, plan mode, an untrusted workspace), and the sandbox still confines bash
 *
 * A rule names a tool either way (`Bash` or `bash`, `Read` or `read_file`), or an MCP server's tools:
 * `mcp__docs__search`, `mcp__docs` (all of them), `mcp__docs__*`. Lists are separated by commas or spaces.
 * One content rule is matched: `web_fetch(domain:example.com)` / `WebFetch(domain:*.example.com)` allows fetches
 * from that host (or its subdomains) without asking; it is also the only way past the question for a host on this
 * machine or a private network (web-fetch-policy.ts). Claude Code's other content rules (`Bash(git log:*)`,
 * `Read(./src/**)`) are not matched by content here: an allow rule with content is ignored (the call is still
 * asked), a deny rule with content denies the whole tool (the safe direction); both are said once, through `warnings`.
 * Claude Code's subagent rules are matched: `Agent(Explore)` / `Task(reviewer)` denied: that agent type is never
 * started nor offered (the rest still are); allowed: nothing to skip (starting a subagent is never asked), so no warning.
 */
import { ourToolName, toolNameAliases } from '../tools/tool-names';
import { normalizeHost, WEB_FETCH } from './web-fetch-policy';

/** Our names of every tool a rule may name besides MCP ones (some arrive on other branches). */
const TASK = 'task';
const BUILT_IN = new Set(['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'grep', 'task', 'web_fetch', 'web_search', 'ask_user', 'skill']);

export interface ToolRuleLists {
  allowed?: string[];
  disallowed?: string[];
}

export class ToolRules {
  private readonly allowed: string[] = [];
  private readonly disallowed: string[] = [];
  /** Hosts of `web_fetch(domain:…)` allow rules: exact names, or `*.example.com` for its subdomains. */
  private readonly allowedHosts: string[] = [];
  /** Agent types of `Agent(name)` / `Task(name)` deny rules, lowercased. */
  private readonly deniedAgents = new Set<string>();
  /** One line each, for the host to show once (rules it could not honour as written). */
  readonly warnings: string[] = [];

  constructor(lists: ToolRuleLists = {}) {
    for (const rule of splitRules(lists.allowed ?? [])) {
      const parsed = this.parse(rule);
      if (parsed === undefined) continue;
      const domain = parsed.name === WEB_FETCH ? /^domain:\s*(\S+)$/.exec(parsed.content ?? '')?.[1] : undefined;
      if (domain !== undefined && domain !== '*') this.allowedHosts.push(normalizeHost(domain));
      else if (parsed.name === TASK && parsed.content) continue; // starting a subagent is never asked: nothing to skip
      else if (parsed.name === WEB_FETCH && parsed.content) this.warnings.push(`allowed tool rule "${rule}": web_fetch rules name a host as domain:HOST (web_fetch(domain:example.com)), so it is ignored`);
      else if (parsed.content) this.warnings.push(`allowed tool rule "${rule}": rules with content are not supported, so it is ignored (allow ${parsed.name} as a whole, or leave its calls to be asked)`);
      else this.allowed.push(parsed.name);
    }
    for (const rule of splitRules(lists.disallowed ?? [])) {
      const parsed = this.parse(rule);
      if (parsed === undefined) continue;
      if (parsed.name === TASK && parsed.content) {
        for (const agent of parsed.content.split(',')) if (agent.trim()) this.deniedAgents.add(agent.trim().toLowerCase());
        continue;
      }
      if (parsed.content) this.warnings.push(`disallowed tool rule "${rule}": rules with content are not supported, so all of ${parsed.name} is disallowed`);
      this.disallowed.push(parsed.name);
    }
  }

  get empty(): boolean {
    return this.allowed.length === 0 && this.disallowed.length === 0 && this.allowedHosts.length === 0 && this.deniedAgents.size === 0;
  }

  /** A disallowed tool: refused whatever the mode, and left out of what the model is offered. */
  disallows(toolName: string): boolean {
    return this.disallowed.some((rule) => matches(rule, toolName));
  }

  /** The tools the allow rules name (ours, or `mcp__…` as written). */
  get allowedNames(): readonly string[] {
    return this.allowed;
  }

  /** An `Agent(name)` / `Task(name)` deny rule names this agent (its id or its name as written; any case). */
  deniesAgent(name: string): boolean {
    return this.deniedAgents.has(name.trim().toLowerCase());
  }

  /** An allowed tool: its calls are not asked about. */
  allows(toolName: string): boolean {
    return this.allowed.some((rule) => matches(rule, toolName));
  }

  /** A `web_fetch(domain:…)` rule names this host (`*.example.com`: example.com's subdomains). */
  allowsHost(toolName: string, host: string): boolean {
    if (toolName !== WEB_FETCH) return false;
    const name = normalizeHost(host);
    return this.allowedHosts.some((rule) => (rule.startsWith('*.') ? name.endsWith(rule.slice(1)) : rule === name));
  }

  /** `Name(content)` → name and content (undefined when none, or `*`); our name for a built-in one; unknown names are warned about. */
  private parse(rule: string): { name: string; content: string | undefined } | undefined {
    const m = /^([^()]+?)\s*(?:\((.*)\))?$/.exec(rule);
    const raw = (m?.[1] ?? rule).trim();
    const body = m?.[2]?.trim();
    const content = body !== undefined && body !== '' && body !== '*' ? body : undefined;
    if (raw.startsWith('mcp__')) return { name: raw, content };
    const ours = ourToolName(raw, BUILT_IN);
    if (ours === undefined) {
      this.warnings.push(`tool rule "${rule}" names no tool Delegate has (names: ${[...BUILT_IN].join(', ')}, their Claude Code names, or mcp__server__tool)`);
      return undefined;
    }
    return { name: ours, content };
  }
}

/** Commas or spaces separate rules, except inside parentheses (`Bash(git log:*)` is one rule). */
export function splitRules(lists: string[]): string[] {
  const rules: string[] = [];
  for (const list of lists) {
    let depth = 0;
    let current = '';
    for (const ch of list) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
        if (current.trim()) rules.push(current.trim());
        current = '';
      } else current += ch;
    }
    if (current.trim()) rules.push(current.trim());
  }
  return rules;
}

function matches(rule: string, toolName: string): boolean {
  if (rule === toolName || toolNameAliases(toolName).includes(rule)) return true;
  if (!rule.startsWith('mcp__') || !toolName.startsWith('mcp__')) return false;
  // `mcp__server` and `mcp__server__*`: every tool of that server.
  const server = rule.endsWith('__*') ? rule.slice(0, -3) : rule.split('__').length === 2 ? rule : undefined;
  return server !== undefined && toolName.startsWith(`${server}__`);
}
