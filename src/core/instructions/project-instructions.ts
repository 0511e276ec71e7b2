/**
 * Project instructions for every agent's system prompt (the parent's and each subagent's):
 *
 *   AGENTS.md, CLAUDE.md, .claude/CLAUDE.md (project) · CLAUDE.local.md (local) · ~/.claude/CLAUDE.md (user)
 *     each followed by the files its `@path` imports name (≤ 5 levels; a file already in is not taken again,
 *     which also ends cycles; the same text under two names — CLAUDE.md copied from AGENTS.md — is taken once)
 *   ─▶ "## From AGENTS.md" sections in that order ─▶ cut at 40,000 characters in all, with a note naming what was left out
 *
 * The workspace's files come first, so a long personal ~/.claude/CLAUDE.md is what the cut takes, not the project's.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { errorText } from '../errors';
import { importPaths, isWithin, resolveImport } from './instruction-imports';
import { cutNote, MAX_INSTRUCTION_CHARS } from './instruction-cut';
import { SETTING_SOURCES, type SettingSource } from '../vocabulary';

export { MAX_INSTRUCTION_CHARS };
const MAX_IMPORT_DEPTH = 5;
/** Bigger files are not instructions (and would be cut anyway): not read. */
const MAX_FILE_BYTES = 1_000_000;

export interface ProjectInstructions {
  /** The system-prompt section; '' when no file was found. */
  text: string;
  /** Files whose text is in it (relative to the workspace, or ~/…), in order. */
  files: string[];
  /** Characters of the files' text in the section (headers and the cut note not counted). */
  chars: number;
  cut: boolean;
  /** What was not taken, and why (an import outside the workspace, a file too large, a duplicate). */
  skipped: string[];
}

export interface InstructionsLocation {
  workdir: string;
  home: string;
  sources?: readonly SettingSource[];
  maxChars?: number;
}

interface Section {
  display: string;
  label: string;
  text: string;
}

export async function loadProjectInstructions(loc: InstructionsLocation): Promise<ProjectInstructions> {
  const sources = loc.sources ?? SETTING_SOURCES;
  const workdir = await realpath(loc.workdir).catch(() => loc.workdir);
  const home = await realpath(loc.home).catch(() => loc.home);
  /** Relative to the workspace, or ~/…, whether the path given is the real one or not (/tmp vs /private/tmp). */
  const display = (path: string): string => {
    for (const root of [loc.workdir, workdir]) if (isWithin(path, root)) return relative(root, path) || '.';
    for (const root of [loc.home, home]) if (isWithin(path, root)) return `~/${relative(root, path)}`;
    return path;
  };
  // A repository's files (and what they import) stay in the workspace or ~/.claude; the user's own file may use HOME.
  const projectBounds = { roots: [workdir, join(home, '.claude')], label: 'the workspace and ~/.claude' };
  const userBounds = { roots: [home], label: 'the home folder' };
  const top: { file: string; source: SettingSource; label: string }[] = [
    { file: join(loc.workdir, 'AGENTS.md'), source: 'project', label: 'project instructions' },
    { file: join(loc.workdir, 'CLAUDE.md'), source: 'project', label: 'project instructions' },
    { file: join(loc.workdir, '.claude', 'CLAUDE.md'), source: 'project', label: 'project instructions' },
    { file: join(loc.workdir, 'CLAUDE.local.md'), source: 'local', label: 'local project instructions, not committed' },
    { file: join(loc.home, '.claude', 'CLAUDE.md'), source: 'user', label: "the user's instructions for every project" },
  ];

  const sections: Section[] = [];
  const skipped: string[] = [];
  const seenFiles = new Set<string>();
  const seenTexts = new Map<string, string>();

  const visit = async (file: string, bounds: { roots: string[]; label: string }, label: string, depth: number, importedBy?: string, written?: string): Promise<void> => {
    const named = importedBy ? ` (imported by ${importedBy})` : '';
    let real: string;
    try {
      real = await realpath(file);
    } catch {
      // A missing top-level file is the usual case, and `@someone` in prose is a mention; `@docs/x.md` is worth saying.
      if (written !== undefined && /[/.]/.test(written)) skipped.push(`${display(file)}${named}: not found`);
      return;
    }
    if (seenFiles.has(real)) return;
    seenFiles.add(real);
    if (!bounds.roots.some((root) => isWithin(real, root))) return void skipped.push(`${display(real)}${named}: outside ${bounds.label}`);
    let text: string;
    try {
      const info = await stat(real);
      if (!info.isFile()) return void skipped.push(`${display(real)}${named}: not a file`);
      if (info.size > MAX_FILE_BYTES) return void skipped.push(`${display(real)}${named}: larger than 1 MB`);
      text = await readFile(real, 'utf8');
    } catch (err) {
      return void skipped.push(`${display(real)}${named}: cannot read it (${errorText(err)})`);
    }
    if (text.includes('\u0000')) return void skipped.push(`${display(real)}${named}: not a text file`);
    // Named as the user knows it: CLAUDE.md, even when it is a link to docs/agents.md.
    const shown = display(file);
    const same = seenTexts.get(text.trim());
    if (same !== undefined) skipped.push(`${shown}: the same text as ${same}`);
    else if (text.trim() !== '') {
      seenTexts.set(text.trim(), shown);
      sections.push({ display: shown, label: importedBy ? `imported by ${importedBy}` : label, text: text.trim() });
    }
    const imports = importPaths(text);
    if (imports.length > 0 && depth >= MAX_IMPORT_DEPTH) return void skipped.push(`imports in ${shown}: more than ${MAX_IMPORT_DEPTH} levels deep`);
    for (const path of imports) await visit(resolveImport(path, file, loc.home), bounds, label, depth + 1, shown, path);
  };

  for (const t of top) {
    if (!sources.includes(t.source)) continue;
    await visit(t.file, t.source === 'user' ? userBounds : projectBounds, t.label, 0);
  }
  return assemble(sections, skipped, loc.maxChars ?? MAX_INSTRUCTION_CHARS);
}

/** The sections joined and cut to `max` characters of file text, with a note naming what the cut left out. */
function assemble(sections: readonly Section[], skipped: string[], max: number): ProjectInstructions {
  const parts: string[] = [];
  const files: string[] = [];
  const left: string[] = [];
  let chars = 0;
  for (const s of sections) {
    const room = max - chars;
    if (room <= 0) {
      left.push(s.display);
      continue;
    }
    const text = s.text.length > room ? s.text.slice(0, room) : s.text;
    if (text.length < s.text.length) left.push(`the rest of ${s.display}`);
    parts.push(`## From ${s.display} (${s.label})\n\n${text}`);
    files.push(s.display);
    chars += text.length;
  }
  const cut = left.length > 0;
  if (cut) parts.push(cutNote(max, left));
  return { text: parts.join('\n\n'), files, chars, cut, skipped };
}
