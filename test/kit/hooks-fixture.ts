/**
 * A copy of test/fixtures/hooks-repo (a project with real-world-shaped `.claude/settings.json` hooks, AGENTS.md
 * and CLAUDE.md) in a fresh temp folder, with an empty HOME beside it, and a session over it for core tests.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DelegateEvent } from '../../src/core/events';
import { loadHookSettings } from '../../src/core/hooks/hook-settings';
import { loadProjectInstructions } from '../../src/core/instructions/project-instructions';
import type { ModelPort } from '../../src/core/llm/types';
import type { Approver, ToolCallRequest } from '../../src/core/policy/types';
import type { Session } from '../../src/core/session';
import type { ConfigPatch } from './session-config';
import { tempDir } from './temp-dirs';
import { testSession } from './test-session';

const HOOKS_REPO = resolve(__dirname, '..', 'fixtures', 'hooks-repo');

export interface FixtureDirs {
  workdir: string;
  home: string;
  transcriptRoot: string;
}

export function fixtureRepo(): FixtureDirs {
  const root = tempDir('delegate-hooks-');
  const dirs = { workdir: join(root, 'ws'), home: join(root, 'home'), transcriptRoot: join(root, 'transcripts') };
  cpSync(HOOKS_REPO, dirs.workdir, { recursive: true });
  mkdirSync(dirs.home);
  return dirs;
}

/** Writes a settings file (`.claude/settings.local.json` by default) holding `hooks`. */
export function writeSettings(dir: string, hooks: unknown, name = 'settings.local.json'): void {
  mkdirSync(join(dir, '.claude'), { recursive: true });
  writeFileSync(join(dir, '.claude', name), JSON.stringify({ hooks }, null, 2));
}

export function readLog(dirs: FixtureDirs, name: string): string[] {
  const file = join(dirs.workdir, '.claude', name);
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
}

/** An approver that records what it was asked and answers `decision`. */
export function recordingApprover(decision: 'allow' | 'deny' = 'deny'): Approver & { asked: ToolCallRequest[] } {
  const asked: ToolCallRequest[] = [];
  return { asked, ask: async (req) => (asked.push(req), { decision, reason: 'the test approver said no' }) };
}

export interface OpenedSession {
  session: Session;
  events: DelegateEvent[];
  problems: string[];
}

/** A session over the fixture with the hooks and instructions its files give (bash unsandboxed: pids are host pids). */
export async function openFixtureSession(dirs: FixtureDirs, model: ModelPort, extra: ConfigPatch = {}): Promise<OpenedSession> {
  const commandHooks = await loadHookSettings({ workdir: dirs.workdir, home: dirs.home });
  const instructions = await loadProjectInstructions({ workdir: dirs.workdir, home: dirs.home });
  const { session, events } = await testSession(
    { workdir: dirs.workdir, transcriptRoot: dirs.transcriptRoot, model, approver: recordingApprover('allow') },
    { tools: { sandbox: { mode: 'off', allowNetwork: false } }, ...extra, files: { commandHooks, instructions, ...extra.files } },
  );
  return { session, events, problems: commandHooks.problems.map((p) => `${p.source}: ${p.text}`) };
}

/** The `hook` events, as "Event outcome: message" lines. */
export function hookLines(events: DelegateEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'hook' ? [`${e.hookEvent} ${e.outcome}: ${e.message}`] : []));
}
