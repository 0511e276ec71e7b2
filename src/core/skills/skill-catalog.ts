/**
 * The skills a session offers, found where the tools users already have keep them (`<dir>/<skill>/SKILL.md`):
 *
 *   user      ~/.agents/skills, ~/.claude/skills
 *   project   .agents/skills, .github/skills (Copilot), .claude/skills (Claude Code)   ← wins on a name clash
 *
 * Later sources win, so a project's skill shadows the user's of the same name (the spec's client guide: "project-level
 * skills override user-level skills"), and inside the project Claude Code's folder beats Copilot's, which beats the
 * cross-client `.agents/`. A shadowed skill is a warning naming both files. The project's folders are read only where
 * the folder is trusted (the same switch as its agent files: an untrusted editor workspace). A file that cannot be used
 * is a warning with its reason and is skipped; nothing here throws.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentFileProblem } from '../agent-files/agent-definition';
import { parseSkillFile, type Skill, type SkillScope } from './skill-file';

export interface SkillCatalog {
  /** By name, sorted: the order the `skill` tool lists them in (stable, so the request's prefix stays cached). */
  skills: ReadonlyMap<string, Skill>;
  problems: AgentFileProblem[];
}

export interface SkillCatalogOptions {
  workdir: string;
  /** The user's home (~/.claude/skills, ~/.agents/skills); none: no user skills. */
  home?: string;
  /** False where the folder is not trusted: its skills are not read. */
  includeProject?: boolean;
}

/** Where skills live, lowest precedence first. */
function skillDirs(o: SkillCatalogOptions): { dir: string; scope: SkillScope }[] {
  const dirs: { dir: string; scope: SkillScope }[] = [];
  if (o.home) for (const d of ['.agents', '.claude']) dirs.push({ dir: join(o.home, d, 'skills'), scope: 'user' });
  if (o.includeProject !== false) for (const d of ['.agents', '.github', '.claude']) dirs.push({ dir: join(o.workdir, d, 'skills'), scope: 'project' });
  return dirs;
}

/** More skill folders than this in one place are not read (a runaway folder would cost start-up time and prompt). */
const MAX_SKILLS_PER_DIR = 500;
/** A SKILL.md bigger than this is cut when read: its front matter is at the top. */
const MAX_FILE_BYTES = 1_000_000;

export async function loadSkillCatalog(o: SkillCatalogOptions): Promise<SkillCatalog> {
  const problems: AgentFileProblem[] = [];
  const found: { file: string; dir: string; folder: string; scope: SkillScope }[] = [];
  for (const { dir, scope } of skillDirs(o)) {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
    if (names.length > MAX_SKILLS_PER_DIR) problems.push({ file: dir, reason: `${names.length} entries: only the first ${MAX_SKILLS_PER_DIR} are read as skills`, severity: 'warning' });
    const here = await mapLimited(names.slice(0, MAX_SKILLS_PER_DIR), async (folder) => {
      const skillDir = join(dir, folder);
      // A folder (or a link to one) holding SKILL.md; anything else in a skills folder is not a skill.
      if (!(await stat(skillDir).catch(() => undefined))?.isDirectory()) return undefined;
      const file = join(skillDir, 'SKILL.md');
      return (await stat(file).catch(() => undefined)) ? { file, dir: skillDir, folder, scope } : undefined;
    });
    found.push(...here.filter((e) => e !== undefined));
  }
  if (found.length === 0) return { skills: new Map(), problems };
  // `yaml` is CommonJS: its module.exports is `default` in the CLI's split bundle too (docs/development.md).
  const { default: yaml } = await import('yaml');
  const byName = new Map<string, Skill>();
  // Read side by side (a few hundred files), parsed in order: which file wins a clash does not depend on timing.
  const texts = await mapLimited(found, (entry) => readSkillFile(entry.file).catch((err: Error) => err));
  for (const [i, entry] of found.entries()) {
    const text = texts[i] as string | Error;
    if (text instanceof Error) {
      problems.push({ file: entry.file, reason: `skipped: cannot read it: ${text.message}`, severity: 'error' });
      continue;
    }
    const parsed = parseSkillFile(entry.file, text, entry.scope, entry.dir, entry.folder, yaml.parseDocument);
    problems.push(...parsed.problems);
    const skill = parsed.skill;
    if (!skill) continue;
    const shadowed = byName.get(skill.name);
    if (shadowed) problems.push({ file: shadowed.file, reason: `the skill "${skill.name}" is also in ${skill.file}, which wins (project over user; .claude over .github over .agents)`, severity: 'warning' });
    byName.set(skill.name, skill);
  }
  return { skills: new Map([...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), problems };
}

/** Files open at once while reading a skills folder: well under the usual limit of 1,024 descriptors. */
const PARALLEL = 32;

/** `fn` over `items`, at most PARALLEL at a time, results in the items' order. */
async function mapLimited<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return out;
}

/** Looked at before it is opened: a FIFO or a link to a device (which a repository can hold) would block the start. */
export async function readSkillFile(file: string): Promise<string> {
  if (!(await stat(file)).isFile()) throw new Error('not a regular file (a device, a pipe or a folder)');
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.min((await handle.stat()).size, MAX_FILE_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
