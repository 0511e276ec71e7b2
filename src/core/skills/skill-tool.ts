/**
 * `skill`: progressive disclosure of Agent Skills (agentskills.io), the three tiers of the spec's client guide:
 *
 *   1 catalog       every request: one line per skill in this tool's description (`- name: description`), which
 *                   sits in the request's tools, inside the cached prefix (shared by the parent and its children)
 *   2 instructions  skill{name}: its SKILL.md body (read again now: an edit shows at once), its folder, its files,
 *                   and the tools its `allowed-tools` pre-approve for this agent from now on (activate())
 *   3 resources     files beside SKILL.md, read on demand: with read_file/grep when the folder is in the workspace,
 *                   else with skill{name, file} (a user's skill in ~/.claude/skills is outside it)
 *
 * Offered only when there is at least one skill (no empty tool), and its `name` is an enum of them.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { cutNote, MAX_INSTRUCTION_CHARS } from '../instructions/instruction-cut';
import { resolveInside } from '../tools/path-confinement';
import { sniffText } from '../tools/text-encoding';
import { asRecord, type ParseResult, type Tool } from '../tools/types';
import { readSkillFile } from './skill-catalog';
import { MAX_DESCRIPTION, skillBody, type Skill } from './skill-file';

const SKILL_TOOL = 'skill';

export interface SkillInput {
  name: string;
  /** A file in the skill's folder, relative to it: read instead of the instructions. */
  file?: string;
}

/** What the session does when an agent loads a skill: applies its `allowed-tools`; returns a line for the model. */
export type SkillActivation = (agentId: string, skill: Skill) => Promise<string | undefined>;

/**
 * A listed description is cut at the spec's maximum, so nothing written to the spec is cut: 45 % of github/awesome-copilot's
 * 402 descriptions are longer than 250 characters (p90 518), and Claude Code raised its cut from 250 to 1,536 because
 * cut descriptions lost their triggers. What the list costs in all is bounded by LIST_BUDGET_CHARS instead.
 */
const LISTED_DESCRIPTION_CHARS = MAX_DESCRIPTION;
/** Files named after the instructions, at most; deeper than this the listing stops. */
const MAX_LISTED_FILES = 60;
const MAX_LIST_DEPTH = 4;
/** A resource read through the tool: bigger ones are cut (the model can use other tools on a project's files). */
const MAX_RESOURCE_BYTES = 256_000;

/**
 * What the list's descriptions may take in all (~5k tokens: ~75 of awesome-copilot's skills; Claude Code's budget is 2 %
 * of the context window, ~16,000 characters of a 200k-token one); past it, names only.
 */
const LIST_BUDGET_CHARS = 20_000;

/**
 * One line per skill, as the tool's description lists them; once the descriptions reach the budget, the remaining
 * skills are listed by name alone (a folder of a thousand skills must not cost every request 70k tokens).
 */
export function skillLines(skills: Iterable<Skill>): { text: string; namesOnly: number } {
  let used = 0;
  let namesOnly = 0;
  const lines = [...skills].map((s) => {
    const description = s.description.length > LISTED_DESCRIPTION_CHARS ? `${s.description.slice(0, LISTED_DESCRIPTION_CHARS - 1)}…` : s.description;
    if (used + description.length > LIST_BUDGET_CHARS) return namesOnly++, `- ${s.name}`;
    used += description.length;
    return `- ${s.name}: ${description}`;
  });
  return { text: lines.join('\n'), namesOnly };
}

/** The files of a skill's folder (SKILL.md aside), relative to it, breadth first, capped. */
async function folderFiles(dir: string): Promise<{ files: string[]; more: boolean }> {
  const files: string[] = [];
  let more = false;
  const queue: { path: string; depth: number }[] = [{ path: dir, depth: 0 }];
  while (queue.length > 0) {
    const { path, depth } = queue.shift() as { path: string; depth: number };
    const entries = (await readdir(path, { withFileTypes: true }).catch(() => [])).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name === 'node_modules' || e.name === '__pycache__') continue;
      const full = join(path, e.name);
      if (e.isDirectory()) {
        if (depth + 1 < MAX_LIST_DEPTH) queue.push({ path: full, depth: depth + 1 });
        else more = true;
      } else if (!(depth === 0 && e.name === 'SKILL.md')) {
        if (files.length >= MAX_LISTED_FILES) return { files, more: true };
        files.push(relative(dir, full));
      }
    }
  }
  return { files, more };
}

export interface SkillToolOptions {
  workdir: string;
  skills: ReadonlyMap<string, Skill>;
  activate: SkillActivation;
}

export function createSkillTool({ workdir, skills, activate }: SkillToolOptions): Tool<SkillInput> {
  const inWorkspace = (skill: Skill): boolean => {
    const rel = relative(workdir, skill.dir);
    return rel !== '' && !rel.startsWith('..') && !rel.startsWith('/');
  };
  return {
    name: SKILL_TOOL,
    kind: 'read',
    description:
      'Load a skill: instructions for a kind of task, with files beside them. When a task matches a skill below, call this with its name first ' +
      'and follow what it returns; it names the skill\'s folder and files, which you read only when the instructions need them (file: reads one).\n' +
      `Skills:\n${skillLines(skills.values()).text}`,
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', enum: [...skills.keys()], description: 'The skill to load.' },
        file: { type: 'string', description: 'Optional: a file in the skill\'s folder (relative to it) to read instead of its instructions.' },
      },
      required: ['name'],
    },

    parse(raw): ParseResult<SkillInput> {
      const rec = asRecord(raw);
      if (!rec || typeof rec.name !== 'string' || rec.name.trim() === '') return { ok: false, error: 'skill needs "name" (one of the skills listed in its description)' };
      if (rec.file !== undefined && (typeof rec.file !== 'string' || rec.file === '')) return { ok: false, error: '"file" must be a non-empty path relative to the skill\'s folder' };
      return { ok: true, input: { name: rec.name.trim(), ...(typeof rec.file === 'string' ? { file: rec.file } : {}) } };
    },

    describe(input) {
      const skill = skills.get(input.name);
      // A project skill's files are links in the hosts; a user's skill is outside the workspace: no path (the
      // permission check confines paths to the workspace, and the tool confines `file` to the skill's folder).
      const path = skill && inWorkspace(skill) ? relative(workdir, input.file ? join(skill.dir, input.file) : skill.file) : undefined;
      return { summary: input.file ? `${input.name} · ${input.file}` : input.name, paths: path ? [path] : [] };
    },

    async execute(input, ctx) {
      const skill = skills.get(input.name);
      if (!skill) return { content: `No skill "${input.name}". Skills: ${[...skills.keys()].join(', ')}`, isError: true };
      if (input.file !== undefined) return readResource(skill, input.file);
      let text: string;
      try {
        text = await readSkillFile(skill.file);
      } catch (err) {
        return { content: `Cannot read ${skill.file}: ${err instanceof Error ? err.message : String(err)}`, isError: true };
      }
      const body = skillBody(text);
      const cut = body.length > MAX_INSTRUCTION_CHARS ? `${body.slice(0, MAX_INSTRUCTION_CHARS)}\n\n${cutNote(MAX_INSTRUCTION_CHARS, [skill.file])}` : body;
      const { files, more } = await folderFiles(skill.dir);
      const how = inWorkspace(skill)
        ? `read them with read_file (paths like ${relative(workdir, skill.dir)}/${files[0] ?? 'FILE'})`
        : `it is outside the workspace: read them with skill{name: "${skill.name}", file: "<path relative to the folder>"}`;
      const listing = files.length ? `Files in it (${how}):\n${files.map((f) => `- ${f}`).join('\n')}${more ? '\n- … (more; not listed)' : ''}` : 'It holds no other files.';
      const granted = await activate(ctx.agentId, skill);
      return {
        content: [
          `<skill_content name="${skill.name}">`,
          cut,
          '</skill_content>',
          `Skill folder: ${skill.dir} (relative paths in the skill are relative to it). ${listing}`,
          ...(granted ? [granted] : []),
        ].join('\n'),
      };
    },
  };
}

async function readResource(skill: Skill, file: string): Promise<{ content: string; isError?: boolean }> {
  const where = await resolveInside(skill.dir, file);
  if (!where.ok) return { content: `${file}: not in the folder of the skill "${skill.name}" (${where.reason})`, isError: true };
  let text: string;
  try {
    text = await readSkillFileCapped(where.absPath);
  } catch (err) {
    return { content: `${file}: ${err instanceof Error ? err.message : String(err)}`, isError: true };
  }
  return { content: text };
}

async function readSkillFileCapped(absPath: string): Promise<string> {
  const raw = await readSkillFile(absPath);
  const buf = Buffer.from(raw, 'utf8');
  const sniffed = sniffText(buf);
  if (sniffed.kind === 'binary') throw new Error('a binary file: only text is returned');
  return sniffed.text.length > MAX_RESOURCE_BYTES ? `${sniffed.text.slice(0, MAX_RESOURCE_BYTES)}\n[cut at ${MAX_RESOURCE_BYTES} characters]` : sniffed.text;
}
