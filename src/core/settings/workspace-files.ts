/**
 * The settings and instruction files a session loads, for both hosts (issue 14: one face):
 *
 *   sources (the CLI's --setting-sources; default all) ─▶ hooks (unless hooks: false, the CLI's --no-hooks)
 *                                                          + AGENTS.md / CLAUDE.md …
 *   trusted: false (an untrusted editor workspace)     ─▶ the user's hooks only (a cloned repository's hooks would be
 *                                                          its code running on open); an info notice says the
 *                                                          workspace's hooks wait for trust
 *
 * Problems and notes become notices at the session's first prompt (prompt-gate.ts). Instructions load either
 * way: text the agent could read anyway, and an untrusted workspace's agents are read-only. The CLI and ACP load
 * the folder's hooks and hand the session a FolderTrust instead (folder-trust.ts): they run once it is trusted.
 */
import { existsSync } from 'node:fs';
import { loadHookSettings, settingsFiles, type HookSettings } from '../hooks/hook-settings';
import { loadProjectInstructions, type ProjectInstructions } from '../instructions/project-instructions';
import type { SettingSource } from '../vocabulary';

export interface WorkspaceFilesOptions {
  workdir: string;
  home: string;
  /** Which files load (default all). */
  sources?: readonly SettingSource[];
  /** False: no hooks at all (default true). */
  hooks?: boolean;
  /** False: the workspace's own hooks wait for trust (default true). */
  trusted?: boolean;
}

export async function loadWorkspaceFiles(options: WorkspaceFilesOptions): Promise<{ commandHooks?: HookSettings; instructions: ProjectInstructions }> {
  const { workdir, home, trusted = true } = options;
  const sources = options.sources ? { sources: options.sources } : {};
  const [commandHooks, instructions] = await Promise.all([
    options.hooks === false ? undefined : loadHookSettings({ workdir, home, ...(trusted ? sources : { sources: ['user'] as const }) }),
    loadProjectInstructions({ workdir, home, ...sources }),
  ]);
  if (commandHooks && !trusted) {
    for (const waiting of settingsFiles({ workdir, home, sources: ['project', 'local'] }).filter((f) => existsSync(f.file))) {
      commandHooks.problems.push({ level: 'info', source: waiting.display, text: 'its hooks do not run until you trust this workspace (yours in ~/.claude/settings.json do)' });
    }
  }
  return { ...(commandHooks ? { commandHooks } : {}), instructions };
}
