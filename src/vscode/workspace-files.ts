/**
 * The settings and instruction files an editor session loads, and the notices about them:
 *
 *   trusted workspace    ─▶ hooks from ~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json
 *   untrusted workspace  ─▶ the user's hooks only (a cloned repository's hooks would be its code running on open);
 *                           a notice says the workspace's hooks wait for trust
 *   every problem        ─▶ one warning per problem per window (New Session does not repeat it)
 *
 * Instructions (AGENTS.md, CLAUDE.md…) load either way: they are text the agent could read anyway, and an
 * untrusted workspace's agents are read-only.
 */
import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { loadHookSettings, settingsFiles, type HookSettings } from '../core/hooks/hook-settings';
import { loadProjectInstructions, type ProjectInstructions } from '../core/instructions/project-instructions';

export async function loadWorkspaceFiles(workdir: string, trusted: boolean, said: Set<string>): Promise<{ commandHooks: HookSettings; instructions: ProjectInstructions }> {
  const home = homedir();
  const [commandHooks, instructions] = await Promise.all([
    loadHookSettings({ workdir, home, sources: trusted ? ['user', 'project', 'local'] : ['user'] }),
    loadProjectInstructions({ workdir, home }),
  ]);
  const sayOnce = (text: string): void => {
    if (said.has(text)) return;
    said.add(text);
    void vscode.window.showWarningMessage(text);
  };
  for (const problem of commandHooks.problems) sayOnce(`Delegate: hooks: ${problem}`);
  if (!trusted) {
    const waiting = settingsFiles({ workdir, home, sources: ['project', 'local'] }).filter((f) => existsSync(f.file));
    if (waiting.length) sayOnce(`Delegate: this workspace's hooks (${waiting.map((f) => f.display).join(', ')}) do not run until you trust it; your own (~/.claude/settings.json) do.`);
  }
  return { commandHooks, instructions };
}
