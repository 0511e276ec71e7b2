/**
 * One Agent Skill: a folder holding `SKILL.md` (the open format Claude Code, Copilot and Codex read; agentskills.io):
 *
 *   .claude/skills/git-commit/           ---
 *   ├── SKILL.md                         name: git-commit            required; the spec: ≤ 64 of a-z 0-9 -, no leading,
 *   └── assets/pr-template.md            description: Execute git…   trailing or doubled -, the folder's name; ≤ 1,024
 *                                        allowed-tools: Bash          optional: pre-approved tools (session/session-skills.ts)
 *                                        license: MIT                 optional, as are compatibility and metadata
 *                                        ---
 *                                        # Git Commit …              ← the body: loaded by the `skill` tool
 *
 * Read leniently, as the spec's client guide asks: a name that breaks the spec's rules (capitals, not the folder's
 * name, too long) or a description over the spec's 1,024 characters (listed cut there) is a warning and the skill
 * loads; no description, or front matter that cannot be read, skips the file with its reason. Problems are returned,
 * never thrown.
 */
import type { parseDocument as ParseDocument } from 'yaml';
import { readFrontMatter, splitFrontMatter } from '../agent-files/front-matter';
import type { AgentFileProblem } from '../agent-files/agent-definition';
import { splitRules } from '../policy/tool-rules';

export type SkillScope = 'project' | 'user';

export interface Skill {
  /** What the `skill` tool and an agent file's `skills:` name it by. */
  name: string;
  description: string;
  /** Absolute path of its SKILL.md. */
  file: string;
  /** Its folder (SKILL.md's parent): where the files its instructions name are. */
  dir: string;
  scope: SkillScope;
  /** `allowed-tools` as written, one rule each (`Bash`, `Read`, `Bash(git:*)`): what it pre-approves while active. */
  allowedTools: string[];
  /** `license` as written (shown to nobody: kept for the record). */
  license?: string;
}

/** The spec's name: lowercase letters, digits and single hyphens, 1–64 characters. */
const SPEC_NAME = /^(?!-)(?!.*--)[a-z0-9-]{1,64}(?<!-)$/;
/** The spec's longest description; the `skill` tool lists a longer one cut here. */
export const MAX_DESCRIPTION = 1024;
/** What Delegate can address at all: one token, no spaces or control characters (longer or odder names are skipped). */
const USABLE_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._:-]{0,127}$/u;

/** Skill front matter's fields, for the line-by-line reading of invalid YAML (front-matter.ts). */
const SKILL_FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools', 'disable-model-invocation', 'user-invocable', 'argument-hint', 'model']);

/** `allowed-tools` as the spec writes it (space-separated), as Copilot's collection does (comma-separated), or a YAML list. */
function rulesOf(value: unknown): string[] | 'invalid' {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return splitRules([value]);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((v) => v.trim()).filter(Boolean);
  return 'invalid';
}

/** Parses one SKILL.md's front matter; `folder` is the name of the folder holding it (the spec's name must match it). */
export function parseSkillFile(
  file: string,
  text: string,
  scope: SkillScope,
  dir: string,
  folder: string,
  parseDocument: typeof ParseDocument,
): { skill?: Skill; problems: AgentFileProblem[] } {
  const problems: AgentFileProblem[] = [];
  const warn = (reason: string): void => void problems.push({ file, reason, severity: 'warning' });
  const fail = (reason: string, line?: number) => ({ problems: [...problems, { file, reason: `skipped: ${reason}`, severity: 'error' as const, ...(line ? { line } : {}) }] });
  const parts = splitFrontMatter(text);
  if (!parts) return fail('no YAML front matter (SKILL.md must start with a --- line and close it with another)', 1);
  const read = readFrontMatter(parts.yaml, parseDocument, SKILL_FIELDS);
  if (!read.ok) return fail(read.reason, read.line);
  const fields = read.fields;
  if (read.lenient) {
    problems.push({
      file,
      ...(read.lenient.line ? { line: read.lenient.line } : {}),
      reason: `invalid YAML (${read.lenient.error}): read line by line instead; quote the value to make it valid YAML`,
      severity: 'warning',
    });
  }
  // One line, without control or format characters (a right-to-left override would dress one name as another).
  const written = typeof fields.name === 'string' ? fields.name.replace(/[\p{Cc}\p{Cf}]/gu, '').trim() : '';
  const name = written || folder;
  if (!written) warn(`no \`name\` field: named after its folder, "${folder}"`);
  if (!USABLE_NAME.test(name)) return fail(`the name "${name.slice(0, 80)}" is not one word of letters, digits, ".", "_", ":" or "-" (at most 128)`);
  if (written && !SPEC_NAME.test(name)) warn(`the name "${name}" breaks the Agent Skills rules (1-64 lowercase letters, digits and single hyphens): loaded anyway`);
  else if (written && name !== folder) warn(`the name "${name}" is not its folder's ("${folder}"), as the Agent Skills spec asks: loaded as "${name}"`);
  // One line in the skill tool's list: whitespace folded, control and format characters dropped.
  const description = typeof fields.description === 'string' ? fields.description.replace(/\s+/g, ' ').replace(/[\p{Cc}\p{Cf}]/gu, '').trim() : '';
  if (!description) return fail('no `description` (it tells the model when to use the skill)');
  if (description.length > MAX_DESCRIPTION) warn(`its description is ${description.length.toLocaleString('en-US')} characters: listed cut at ${MAX_DESCRIPTION.toLocaleString('en-US')}, the spec's maximum`);
  const allowed = rulesOf(fields['allowed-tools']);
  if (allowed === 'invalid') warn('`allowed-tools` must be a string of tool names or a list of them: ignored');
  const skill: Skill = { name, description, file, dir, scope, allowedTools: allowed === 'invalid' ? [] : allowed };
  if (typeof fields.license === 'string' && fields.license.trim()) skill.license = fields.license.trim();
  return { skill, problems };
}

/** The body of a SKILL.md as the `skill` tool hands it over: front matter removed, trimmed. */
export function skillBody(text: string): string {
  return (splitFrontMatter(text)?.body ?? text).trim();
}
