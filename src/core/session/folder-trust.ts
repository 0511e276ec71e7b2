/**
 * A folder's own hooks (.claude/settings.json, .claude/settings.local.json) and MCP servers (.mcp.json) run
 * commands on this machine, outside the sandbox: a cloned repository's would run at its first prompt. With a
 * FolderTrust (the CLI, `delegate acp`) they wait for the host's answer about the folder:
 *
 *   host: --trust-folder, a remembered yes, a question ─▶ answer() ─┬─ trusted: they run as configured
 *                                                                   └─ not: skipped, and ONE warning notice at the
 *                                                                      first prompt says what and how to trust
 *   the folder's MCP servers ─▶ their start (prepare) waits for the answer
 *   the folder's hooks ────────▶ each run (admit) waits for it
 *   the user's own (~/.claude/settings.json, --mcp-config, an ACP client's servers) run as they always did
 *
 * The host may answer late (an ACP client is asked at the first prompt): nothing of the folder's runs before.
 * Without a FolderTrust (the editor, which reads a folder's files only when VS Code trusts it) nothing changes.
 */
import { relative } from 'node:path';
import { USER_SETTINGS, type CommandHook, type HookSettings } from '../hooks/hook-settings';
import { describeServer } from '../mcp/config';
import { folderKey, isFolderTrusted, rememberTrustedFolder, trustedFoldersFile } from '../store/trusted-folders';
import type { SessionMcpConfig } from './mcp';
import type { SkillCatalog } from '../skills/skill-catalog';

/**
 * The user's remembered yes for one folder (store/trusted-folders.ts), for a host that asks: `file` where the answers
 * are kept, `folder` the folder as they are keyed (its real path), `trusted()` a yes is remembered, `remember()` keeps one.
 */
export interface RememberedTrust {
  readonly file: string;
  readonly folder: string;
  trusted(): Promise<boolean>;
  remember(): Promise<void>;
}

export async function rememberedTrust(workdir: string, env: NodeJS.ProcessEnv, home: string): Promise<RememberedTrust> {
  const file = trustedFoldersFile(env, home);
  const folder = await folderKey(workdir);
  return { file, folder, trusted: () => isFolderTrusted(file, folder), remember: () => rememberTrustedFolder(file, folder) };
}

export type FolderTrustAnswer = { trusted: true } | { trusted: false; howToTrust: string };

/** The host's word on the folder (SessionConfig.folderTrust). */
export interface FolderTrust {
  answer(): Promise<FolderTrustAnswer>;
}

/** One command the folder would run: where it is configured, what it is, and the command (or URL). */
export interface FolderCommand {
  file: string;
  what: string;
  command: string;
}

const isFolderHook = (hook: CommandHook): boolean => hook.source !== USER_SETTINGS;

/**
 * What the folder itself would run: its settings files' hooks and its .mcp.json servers (none: nothing to ask), and
 * what its skills would let run without asking (their `allowed-tools`: skills/skill-tool.ts).
 */
export function folderCommands(workdir: string, commandHooks: HookSettings | undefined, mcp: SessionMcpConfig | undefined, skills?: SkillCatalog): FolderCommand[] {
  const hooks = Object.entries(commandHooks?.groups ?? {}).flatMap(([event, groups]) =>
    groups.flatMap((group) => group.hooks.filter(isFolderHook).map((hook) => ({ file: hook.source, what: `${event} hook`, command: hook.command }))),
  );
  const servers = (mcp?.servers ?? [])
    .filter((server) => server.origin === 'project')
    .map((server) => ({ file: relative(workdir, server.source) || server.source, what: `MCP server "${server.name}"`, command: describeServer(server) }));
  const granting = [...(skills?.skills.values() ?? [])]
    .filter((skill) => skill.scope === 'project' && skill.allowedTools.length > 0)
    .map((skill) => ({ file: relative(workdir, skill.file) || skill.file, what: `skill "${skill.name}" lets run without asking`, command: skill.allowedTools.join(' ') }));
  return [...hooks, ...servers, ...granting];
}

/** "2 hooks of .claude/settings.json and the MCP server "docs" of .mcp.json". */
function describeFolderCommands(commands: readonly FolderCommand[]): string {
  const hookFiles = new Map<string, number>();
  for (const c of commands) if (c.what.endsWith(' hook')) hookFiles.set(c.file, (hookFiles.get(c.file) ?? 0) + 1);
  const servers = commands.filter((c) => c.what.startsWith('MCP server'));
  const skills = commands.filter((c) => c.what.startsWith('skill '));
  const parts = [
    ...[...hookFiles].map(([file, n]) => `${n} hook${n > 1 ? 's' : ''} of ${file}`),
    ...(servers.length ? [`the MCP server${servers.length > 1 ? 's' : ''} ${servers.map((s) => s.what.slice('MCP server '.length)).join(', ')} of ${[...new Set(servers.map((s) => s.file))].join(', ')}`] : []),
    ...(skills.length ? [`the allowed-tools of the skill${skills.length > 1 ? 's' : ''} ${skills.map((s) => /^skill (".*") lets/.exec(s.what)?.[1] ?? s.what).join(', ')}`] : []),
  ];
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? 'nothing');
}

export interface FolderGate {
  /** The MCP config with the folder's servers waiting for the answer. */
  mcp: SessionMcpConfig | undefined;
  /** For installCommandHooks: the folder's hooks drop out when the folder is not trusted. */
  admit?(hooks: CommandHook[]): Promise<CommandHook[]>;
  /** At the first prompt: the one line saying what was skipped, when something was. */
  notice(): Promise<string | undefined>;
  /** Whether the folder's own may run (no FolderTrust, or nothing to ask: yes). A project skill's allowed-tools wait for it. */
  trusted(): Promise<boolean>;
}

export function gateFolderCommands(trust: FolderTrust | undefined, workdir: string, commandHooks: HookSettings | undefined, mcp: SessionMcpConfig | undefined, skills?: SkillCatalog): FolderGate {
  const commands = folderCommands(workdir, commandHooks, mcp, skills);
  if (!trust || commands.length === 0) return { mcp, notice: async () => undefined, trusted: async () => true };
  const trusted = async (): Promise<boolean> => (await trust.answer()).trusted;
  const prepare = mcp?.host?.prepare;
  return {
    trusted,
    mcp: mcp && {
      ...mcp,
      host: {
        ...mcp.host,
        prepare: async (server) => {
          if (server.origin === 'project' && !(await trusted())) return { skipped: 'this folder is not trusted' };
          return prepare ? prepare(server) : server;
        },
      },
    },
    admit: async (hooks) => (hooks.some(isFolderHook) && !(await trusted()) ? hooks.filter((h) => !isFolderHook(h)) : hooks),
    notice: async () => {
      const answer = await trust.answer();
      if (answer.trusted) return undefined;
      const ran = commands.some((c) => !c.what.startsWith('skill ')) ? ' did not run (they run commands outside the sandbox)' : ' do not apply (its calls are asked as any other)';
      return `this folder is not trusted, so ${describeFolderCommands(commands)}${ran}: ${answer.howToTrust}`;
    },
  };
}
