/**
 * The session's Agent Skills: the `skill` tool (when there is a skill and the tool is not disallowed), and what
 * "active" means for a skill's `allowed-tools`:
 *
 *   skill{name} by agent A ─┐
 *   A starts with skills: ──┤
 *   a resumed main agent ───┤─▶ permissions.allowForAgent(A, its allowed-tools)   A's calls of those tools skip the
 *   whose conversation      │  (a project skill: only once the folder is trusted)  question, for the rest of A's life
 *   loaded it               │
 *   A is a fork of P ───────┘  (P's active skills: their bodies are in the conversation it copied)
 *
 * Only the question is skipped, as with `--allowed-tools`: a refusal stays (plan mode, the bash deny list, paths
 * outside the workspace, an untrusted editor workspace), a protected path is still asked, the sandbox still confines
 * bash, and nothing reaches A's subagents or its parent. Rules with content (`Bash(git:*)`) are not matched by content:
 * they pre-approve nothing, and one warning per skill says so (tool-rules.ts).
 */
import type { AgentFileProblem } from '../agent-files/agent-definition';
import type { PermissionPolicy } from '../policy/permission-policy';
import { ToolRules } from '../policy/tool-rules';
import type { SkillCatalog } from '../skills/skill-catalog';
import type { Skill } from '../skills/skill-file';
import { createSkillTool, skillLines } from '../skills/skill-tool';
import type { MessageParam } from '../llm/types';
import type { AnyTool } from '../tools/types';

export interface SessionSkills {
  /** The `skill` tool, when the session offers one. */
  tool?: AnyTool;
  /** Skill files that could not be used, and allowed-tools that pre-approve less than written. */
  problems: AgentFileProblem[];
  /** Makes `skills`' allowed-tools apply to `agentId` (preloaded into a subagent). */
  activate(agentId: string, skills: readonly Skill[]): void;
  /** A fork (`task{fork: true}`) of `parentId`: the skills active in its parent are active in it too. */
  inherit(parentId: string, forkId: string): void;
  /** The skills a conversation loaded (its `skill{name}` calls): a resumed main agent's are active again. */
  loadedIn(history: readonly MessageParam[]): Skill[];
}

export interface SessionSkillsOptions {
  workdir: string;
  catalog: SkillCatalog | undefined;
  permissions: Pick<PermissionPolicy, 'allowForAgent' | 'offers'>;
  /** The folder's trust (folder-trust.ts): a project skill's allowed-tools wait for it. */
  folderTrusted(): Promise<boolean>;
}

export function createSessionSkills(o: SessionSkillsOptions): SessionSkills {
  const skills = o.catalog?.skills ?? new Map<string, Skill>();
  const problems = [...(o.catalog?.problems ?? [])];
  const rules = new Map<string, ToolRules>();
  for (const skill of skills.values()) {
    if (!skill.allowedTools.length) continue;
    const { usable, unknown, withContent } = sortRules(skill.allowedTools);
    // One line per kind of trouble and skill (a list of a server's tools would otherwise be a line each).
    if (unknown.length) problems.push({ file: skill.file, reason: `allowed-tools: Delegate has no tool ${unknown.map((n) => `"${n}"`).join(', ')}: they pre-approve nothing`, severity: 'warning' });
    if (withContent.length) problems.push({ file: skill.file, reason: `allowed-tools: ${withContent.join(', ')}: rules with content are not matched by content, so they pre-approve nothing (those calls are asked)`, severity: 'warning' });
    if (usable.length) rules.set(skill.name, new ToolRules({ allowed: usable }));
  }
  const admitted = (skill: Skill) => (skill.scope === 'project' ? o.folderTrusted : async () => true);
  /** The skills with allowed-tools active in each agent: a fork starts with its parent's. */
  const active = new Map<string, Set<Skill>>();
  const activate = (agentId: string, list: readonly Skill[]): void => {
    for (const skill of list) {
      const r = rules.get(skill.name);
      if (!r || active.get(agentId)?.has(skill)) continue;
      o.permissions.allowForAgent(agentId, r, admitted(skill));
      active.set(agentId, (active.get(agentId) ?? new Set()).add(skill));
    }
  };
  // Its copied conversation already holds the bodies its parent loaded (or its system prompt the preloaded ones).
  const inherit = (parentId: string, forkId: string): void => activate(forkId, [...(active.get(parentId) ?? [])]);
  const loadedIn = (history: readonly MessageParam[]): Skill[] => {
    const names = new Set<string>();
    for (const m of history) {
      if (m.role !== 'assistant' || typeof m.content === 'string') continue;
      for (const b of m.content) {
        const input = b.type === 'tool_use' && b.name === 'skill' ? (b.input as { name?: unknown; file?: unknown }) : undefined;
        if (input && typeof input.name === 'string' && input.file === undefined) names.add(input.name);
      }
    }
    return [...names].flatMap((n) => skills.get(n) ?? []);
  };
  if (skills.size === 0 || !o.permissions.offers('skill')) return { problems, activate, inherit, loadedIn };
  const { namesOnly } = skillLines(skills.values());
  if (namesOnly > 0) {
    problems.push({ file: [...skills.values()].at(-namesOnly)?.file ?? '', reason: `${skills.size} skills: their descriptions would cost every request too much, so the last ${namesOnly} (by name) are listed without one`, severity: 'warning' });
  }
  const tool = createSkillTool({
    workdir: o.workdir,
    skills,
    activate: async (agentId, skill) => {
      const r = rules.get(skill.name);
      if (!r) return undefined;
      activate(agentId, [skill]);
      const names = r.allowedNames.join(', ');
      if (!(await admitted(skill)())) return `Its allowed-tools (${names}) do not apply: this folder is not trusted, so those calls are asked as any other.`;
      return `While this skill is active (the rest of your run) your calls of ${names} run without asking for permission; what is refused stays refused.`;
    },
  });
  return { tool, problems, activate, inherit, loadedIn };
}

/** A skill's rules: the ones Delegate honours (a tool's name, ours or Claude Code's, or mcp__…), and the rest by why not. */
function sortRules(written: readonly string[]): { usable: string[]; unknown: string[]; withContent: string[] } {
  const usable: string[] = [];
  const unknown: string[] = [];
  const withContent: string[] = [];
  for (const rule of written) {
    // One rule per item: a space inside a YAML list's item ("Azure MCP/documentation") is part of the name.
    if (/\s/.test(rule.replace(/\(.*\)$/, ''))) unknown.push(rule);
    else if (/\(.+\)$/.test(rule) && !/\(\s*\*?\s*\)$/.test(rule)) withContent.push(rule);
    else if (new ToolRules({ allowed: [rule] }).allowedNames.length) usable.push(rule);
    else unknown.push(rule);
  }
  return { usable, unknown, withContent };
}
