/**
 * An agent file's `skills:` (Claude Code's subagent field): those skills' whole instructions go into the subagent's
 * system prompt when it starts, instead of the `skill` tool's list — "the full skill content is injected, not just made
 * available", and the subagent has exactly those skills. Read once, when the session starts (a spec is built without
 * waiting); a name the catalog does not have is a warning and the agent runs without it.
 *
 *   agent file skills: [git-commit] ─▶ preloadSkills ─▶ "<skill_content name="git-commit">…" after its own prompt
 *                                                   └─▶ its allowed-tools apply to that subagent for its whole run
 */
import type { AgentDefinition, AgentFileProblem } from '../agent-files/agent-definition';
import { cutNote, MAX_INSTRUCTION_CHARS } from '../instructions/instruction-cut';
import { readSkillFile } from './skill-catalog';
import { skillBody, type Skill } from './skill-file';

export interface PreloadedSkills {
  /** The system prompt's section: each skill's instructions and folder. */
  prompt: string;
  skills: Skill[];
}

/** Each agent definition with `skills:` → what it preloads; problems for names not found or files not read. */
export async function preloadSkills(
  agents: Iterable<AgentDefinition>,
  skills: ReadonlyMap<string, Skill>,
): Promise<{ byAgent: Map<string, PreloadedSkills>; problems: AgentFileProblem[] }> {
  const problems: AgentFileProblem[] = [];
  const bodies = new Map<string, string>();
  const byAgent = new Map<string, PreloadedSkills>();
  for (const def of agents) {
    if (!def.skills?.length) continue;
    const found: Skill[] = [];
    const parts: string[] = [];
    for (const name of def.skills) {
      const skill = skills.get(name);
      if (!skill) {
        problems.push({ file: def.source, reason: `skills: no skill "${name}" (${skills.size ? `skills: ${[...skills.keys()].join(', ')}` : 'no skills found'}): it runs without it`, severity: 'warning' });
        continue;
      }
      let body = bodies.get(name);
      if (body === undefined) {
        const text = await readSkillFile(skill.file).catch((err: Error) => err);
        if (text instanceof Error) {
          problems.push({ file: skill.file, reason: `cannot read it for ${def.name}'s skills: ${text.message}`, severity: 'warning' });
          continue;
        }
        const whole = skillBody(text);
        body = whole.length > MAX_INSTRUCTION_CHARS ? `${whole.slice(0, MAX_INSTRUCTION_CHARS)}\n\n${cutNote(MAX_INSTRUCTION_CHARS, [skill.file])}` : whole;
        bodies.set(name, body);
      }
      found.push(skill);
      parts.push(`<skill_content name="${skill.name}">\n${body}\n</skill_content>\nSkill folder: ${skill.dir} (relative paths in the skill are relative to it).`);
    }
    if (found.length) byAgent.set(def.name, { prompt: `Skills loaded for you (follow them where the task calls for them):\n\n${parts.join('\n\n')}`, skills: found });
  }
  return { byAgent, problems };
}
