/**
 * The settings and instruction files a headless run loads, and the stderr lines about them:
 *
 *   --setting-sources user,project,local (default all) ─▶ hooks (unless --no-hooks) + AGENTS.md / CLAUDE.md …
 *   a bad file or entry ─▶ one "delegate: hooks: FILE: …" line each, always (the rest still load)
 *
 * The CLI runs project hooks without asking: its caller vouches for the folder, as with Claude Code's `-p`.
 */
import { loadHookSettings, type HookSettings } from '../core/hooks/hook-settings';
import { loadProjectInstructions, type ProjectInstructions } from '../core/instructions/project-instructions';
import type { CliOptions } from './args';
import type { Writers } from './output';

export async function loadWorkspaceFiles(
  options: CliOptions,
  workdir: string,
  home: string,
  out: Writers,
): Promise<{ commandHooks?: HookSettings; instructions: ProjectInstructions }> {
  const where = { workdir, home, sources: options.settingSources };
  const [commandHooks, instructions] = await Promise.all([options.hooks ? loadHookSettings(where) : undefined, loadProjectInstructions(where)]);
  for (const problem of commandHooks?.problems ?? []) out.stderr(`delegate: hooks: ${problem}\n`);
  if (commandHooks?.disabledBy && options.verbose) out.stderr(`delegate: hooks: off ("disableAllHooks" in ${commandHooks.disabledBy})\n`);
  return { ...(commandHooks ? { commandHooks } : {}), instructions };
}
