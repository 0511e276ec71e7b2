/**
 * The settings and instruction files an editor session loads:
 *
 *   trusted workspace    ─▶ hooks from ~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json
 *   untrusted workspace  ─▶ the user's hooks only (a cloned repository's hooks would be its code running on open);
 *                           an info notice says the workspace's hooks wait for trust
 *
 * Problems and notes become notices in the panel at the session's first prompt (core/session/prompt-gate.ts). Instructions
 * (AGENTS.md, CLAUDE.md…) load either way: text the agent could read anyway, and an untrusted workspace's agents
 * are read-only.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { loadHookSettings, settingsFiles, type HookSettings, loadProjectInstructions, type ProjectInstructions } from '../core/session';

export async function loadWorkspaceFiles(workdir: string, trusted: boolean, home = homedir()): Promise<{ commandHooks: HookSettings; instructions: ProjectInstructions }> {
  const [commandHooks, instructions] = await Promise.all([
    loadHookSettings({ workdir, home, sources: trusted ? ['user', 'project', 'local'] : ['user'] }),
    loadProjectInstructions({ workdir, home }),
  ]);
  if (!trusted) {
    for (const waiting of settingsFiles({ workdir, home, sources: ['project', 'local'] }).filter((f) => existsSync(f.file))) {
      commandHooks.problems.push({ level: 'info', source: waiting.display, text: 'its hooks do not run until you trust this workspace (yours in ~/.claude/settings.json do)' });
    }
  }
  return { commandHooks, instructions };
}
