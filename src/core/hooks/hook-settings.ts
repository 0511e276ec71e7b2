/**
 * Command hooks from Claude Code's settings files, checked entry by entry:
 *
 *   ~/.claude/settings.json          (user)    ─┐
 *   .claude/settings.json            (project) ─┼─▶ validate ─▶ { PreToolUse: [{matcher, hooks: [{command, timeoutMs}]}], … }
 *   .claude/settings.local.json      (local)   ─┘      a bad file or entry is skipped and reported (file: why); the rest load
 *
 * Every file's hooks run: Claude Code merges them, no file overrides another. The same file reached twice (the
 * workspace is HOME) is read once, or its hooks would run twice.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { errorText } from '../errors';
import { SETTING_SOURCES, type SettingSource } from '../vocabulary';

export const HOOK_EVENT_NAMES = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStart', 'SubagentStop', 'SessionStart'] as const;
export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

/** Claude Code events Delegate has no moment for: said so by name, not as a typo. */
const NOT_FIRED = new Set(['Notification', 'PreCompact', 'PostCompact', 'SessionEnd', 'PermissionRequest', 'PostToolUseFailure']);

/** Which files load (Claude Code's `--setting-sources`): user = ~/.claude, project = the workspace's, local = *.local.*. */

const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

export interface CommandHook {
  command: string;
  timeoutMs: number;
  /** The file it came from, as shown to the user (`.claude/settings.json`, `~/.claude/settings.json`). */
  source: string;
}

export interface HookGroup {
  matcher: string;
  /** True when the matcher accepts one of these names (a tool's every spelling, an agent type, a source). */
  matches(names: readonly string[]): boolean;
  hooks: CommandHook[];
}

/** Something to tell the user about a file (the session says it once, as a `notice` event). */
export interface SettingsNotice {
  level: 'warning' | 'info';
  /** The file, as the user knows it. */
  source: string;
  /** Where in it and why: `hooks.PreToolUse[0].matcher: not a valid regular expression (…); entry skipped`. */
  text: string;
}

export interface HookSettings {
  groups: Record<HookEventName, HookGroup[]>;
  /** Files that were read (display paths), hooks or not. */
  files: string[];
  /** Problems (a file or an entry skipped) and notes (hooks off, hooks waiting for trust). */
  problems: SettingsNotice[];
  /** `disableAllHooks: true` in this file: nothing runs. */
  disabledBy?: string;
}

export interface SettingsLocation {
  workdir: string;
  home: string;
  sources?: readonly SettingSource[];
}

export function emptyHookSettings(): HookSettings {
  const groups = Object.fromEntries(HOOK_EVENT_NAMES.map((e) => [e, []])) as unknown as Record<HookEventName, HookGroup[]>;
  return { groups, files: [], problems: [] };
}

/** The user's own settings file, as shown (and as its hooks' `source`): the other files are the folder's. */
export const USER_SETTINGS = '~/.claude/settings.json';

/** The settings files in load order, with the names users know them by. */
export function settingsFiles(loc: SettingsLocation): { file: string; display: string; source: SettingSource }[] {
  const all = [
    { file: join(loc.home, '.claude', 'settings.json'), display: USER_SETTINGS, source: 'user' as const },
    { file: join(loc.workdir, '.claude', 'settings.json'), display: '.claude/settings.json', source: 'project' as const },
    { file: join(loc.workdir, '.claude', 'settings.local.json'), display: '.claude/settings.local.json', source: 'local' as const },
  ];
  const sources = loc.sources ?? SETTING_SOURCES;
  return all.filter((f) => sources.includes(f.source));
}

export async function loadHookSettings(loc: SettingsLocation): Promise<HookSettings> {
  const settings = emptyHookSettings();
  const seen = new Set<string>();
  for (const { file, display } of settingsFiles(loc)) {
    let text: string;
    try {
      const real = await realpath(file);
      if (seen.has(real)) continue;
      seen.add(real);
      // Not opened unless it is a file: a FIFO (or a link to /dev/stdin) would wait for ever, /dev/zero never end.
      if (!(await stat(real)).isFile()) {
        settings.problems.push({ level: 'warning', source: display, text: 'it is not a regular file (a device, a pipe or a folder); its hooks are skipped' });
        continue;
      }
      text = await readFile(real, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') settings.problems.push({ level: 'warning', source: display, text: `cannot read it (${errorText(err)}); its hooks are skipped` });
      continue;
    }
    settings.files.push(display);
    addFile(settings, display, text);
  }
  if (settings.disabledBy) {
    const off = { level: 'info' as const, source: settings.disabledBy, text: '"disableAllHooks": true, so no hook runs' };
    return { ...emptyHookSettings(), files: settings.files, problems: [...settings.problems, off], disabledBy: settings.disabledBy };
  }
  return settings;
}

/** Validates one file's text and adds what is valid. Exported for tests of single entries. */
export function addFile(settings: HookSettings, display: string, text: string): void {
  const problem = (where: string, why: string): void => void settings.problems.push({ level: 'warning', source: display, text: `${where}${why}` });
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (err) {
    return problem('', `not valid JSON (${errorText(err)}); its hooks are skipped`);
  }
  if (!isRecord(root)) return problem('', 'not a JSON object; skipped');
  if (root.disableAllHooks === true) settings.disabledBy ??= display;
  if (root.hooks === undefined) return;
  if (!isRecord(root.hooks)) return problem('"hooks": ', 'must be an object of events; skipped');
  for (const [event, entries] of Object.entries(root.hooks)) {
    if (!(HOOK_EVENT_NAMES as readonly string[]).includes(event)) {
      problem(`hooks.${event}: `, NOT_FIRED.has(event) ? 'Delegate does not fire this event; ignored' : `unknown event (known: ${HOOK_EVENT_NAMES.join(', ')}); ignored`);
      continue;
    }
    if (!Array.isArray(entries)) {
      problem(`hooks.${event}: `, 'must be a list of {"matcher", "hooks"} entries; skipped');
      continue;
    }
    entries.forEach((entry: unknown, i) => {
      const group = parseGroup(entry, `hooks.${event}[${i}]`, display, problem);
      if (group) settings.groups[event as HookEventName].push(group);
    });
  }
}

type Report = (where: string, why: string) => void;

function parseGroup(entry: unknown, where: string, source: string, problem: Report): HookGroup | undefined {
  if (!isRecord(entry)) return void problem(`${where}: `, 'not an object; skipped');
  const matcher = entry.matcher ?? '';
  if (typeof matcher !== 'string') return void problem(`${where}.matcher: `, 'must be a string; entry skipped');
  const matches = compileMatcher(matcher);
  if (typeof matches === 'string') return void problem(`${where}.matcher: `, `${matches}; entry skipped`);
  if (!Array.isArray(entry.hooks)) return void problem(`${where}.hooks: `, 'must be a list of {"type": "command", "command": …}; entry skipped');
  const hooks: CommandHook[] = [];
  entry.hooks.forEach((raw: unknown, j) => {
    const at = `${where}.hooks[${j}]: `;
    if (!isRecord(raw)) return problem(at, 'not an object; skipped');
    if (raw.type !== 'command') return problem(at, `type ${JSON.stringify(raw.type)} is not supported (only "command"); ignored`);
    if (typeof raw.command !== 'string' || raw.command.trim() === '') return problem(at, '"command" must be a non-empty string; skipped');
    const timeout = raw.timeout;
    if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0)) {
      return problem(at, '"timeout" must be a positive number of seconds; skipped');
    }
    hooks.push({ command: raw.command, timeoutMs: typeof timeout === 'number' ? Math.round(timeout * 1000) : DEFAULT_HOOK_TIMEOUT_MS, source });
  });
  return hooks.length ? { matcher, matches, hooks } : undefined;
}

/**
 * Claude Code's matcher rules: empty or `*` matches everything; names and `|` alone (`Bash`, `Edit|Write`) match
 * exactly; anything else is a regular expression searched in the name (`Notebook.*`, `mcp__github__.*`). Returns a
 * reason when the expression does not compile.
 */
export function compileMatcher(matcher: string): ((names: readonly string[]) => boolean) | string {
  const m = matcher.trim();
  if (m === '' || m === '*') return () => true;
  if (/^[\w|-]+$/.test(m)) {
    const names = new Set(m.split('|').filter(Boolean));
    return (candidates) => candidates.some((c) => names.has(c));
  }
  let re: RegExp;
  try {
    re = new RegExp(m);
  } catch (err) {
    return `not a valid regular expression (${errorText(err)})`;
  }
  return (candidates) => candidates.some((c) => re.test(c));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
