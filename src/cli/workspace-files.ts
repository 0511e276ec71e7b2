/**
 * The settings and instruction files a headless run loads:
 *
 *   --setting-sources user,project,local (default all) ─▶ hooks (unless --no-hooks) + AGENTS.md / CLAUDE.md …
 *   a bad file or entry ─▶ a warning notice at the first prompt: "delegate: warning: FILE: …" (the rest still load)
 *
 * The CLI runs project hooks without asking: its caller vouches for the folder, as with Claude Code's `-p`.
 */
import type { CliOptions } from './args';
import { loadHookSettings, type HookSettings, loadProjectInstructions, type ProjectInstructions } from '../core/session';

export async function loadWorkspaceFiles(options: CliOptions, workdir: string, home: string): Promise<{ commandHooks?: HookSettings; instructions: ProjectInstructions }> {
  const where = { workdir, home, sources: options.settingSources };
  const [commandHooks, instructions] = await Promise.all([options.hooks ? loadHookSettings(where) : undefined, loadProjectInstructions(where)]);
  return { ...(commandHooks ? { commandHooks } : {}), instructions };
}
