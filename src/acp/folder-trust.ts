/**
 * `delegate acp`'s word on a session's folder: its own hooks and .mcp.json servers run commands outside the
 * sandbox (core/session/folder-trust.ts), so they wait for it.
 *
 *   nothing of the folder's to run, --trust-folder, a remembered yes ─▶ trusted from the start
 *   otherwise ─▶ the client is asked at the session's first prompt, before anything of the folder's runs:
 *                a tool call of its own ("Trust this folder?", the folder and each command) and a
 *                session/request_permission on it. "Trust this folder" is remembered (the CLI's store, by real
 *                path); "Don't trust", a dismissed question or a client that cannot answer skip them, and the
 *                session says so in one notice. A no is not remembered: the next session asks again.
 *
 * Why not at session/new: the client learns the session's id from that request's answer, and a permission request
 * naming an id it does not know yet has nowhere to show. A session closed before its first prompt answers no.
 */
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import type { RequestPermissionRequest, ToolCallContent } from '@agentclientprotocol/sdk/unstable';
import { printable } from '../cli/trust-prompt';
import { rememberedTrust, type FolderCommand, type FolderTrust, type FolderTrustAnswer, type RememberedTrust } from '../core/session/ports';
import type { AskClient } from './permission-requests';
import type { SendUpdate } from './updates';

const TRUST = 'trust_folder';
const HOW_TO_TRUST = 'choose "Trust this folder" when a new session asks (or start `delegate acp --trust-folder`)';

export interface TrustPorts {
  send: SendUpdate;
  ask: AskClient;
  log(line: string): void;
}

export class ClientFolderTrust implements FolderTrust {
  private settled: ((answer: FolderTrustAnswer) => void) | undefined;
  private readonly decided: Promise<FolderTrustAnswer>;

  private readonly folder: string;
  private readonly store: string;

  private constructor(
    private readonly remembered: RememberedTrust,
    private readonly commands: readonly FolderCommand[],
  ) {
    this.folder = remembered.folder;
    this.store = remembered.file;
    this.decided = new Promise((resolve) => (this.settled = resolve));
  }

  /** The trust of a session's folder: undefined when nothing needs it (nothing of its own to run, or trusted already). */
  static async of(workdir: string, commands: readonly FolderCommand[], trustFlag: boolean, env: NodeJS.ProcessEnv): Promise<ClientFolderTrust | undefined> {
    if (commands.length === 0 || trustFlag) return undefined;
    const remembered = await rememberedTrust(workdir, env, homedir());
    if (await remembered.trusted()) return undefined;
    return new ClientFolderTrust(remembered, commands);
  }

  answer(): Promise<FolderTrustAnswer> {
    return this.decided;
  }

  /** At a prompt: asks the client, once; later prompts find it answered. */
  async settle(sessionId: string, ports: TrustPorts, signal: AbortSignal): Promise<void> {
    const settle = this.settled;
    if (!settle) return;
    this.settled = undefined;
    settle(await this.ask(sessionId, ports, signal));
  }

  /** The session closes: a question never asked (or never answered) is a no, so nothing of the folder's starts late. */
  close(): void {
    this.settled?.({ trusted: false, howToTrust: HOW_TO_TRUST });
    this.settled = undefined;
  }

  private async ask(sessionId: string, ports: TrustPorts, signal: AbortSignal): Promise<FolderTrustAnswer> {
    const toolCallId = `delegate-trust-folder-${randomUUID()}`;
    const title = 'Trust this folder? Its own hooks and MCP servers run commands on this machine, outside the sandbox';
    const content: ToolCallContent[] = [{ type: 'content', content: { type: 'text', text: this.describe() } }];
    const rawInput = { folder: this.folder, commands: this.commands };
    await ports.send(sessionId, { sessionUpdate: 'tool_call', toolCallId, title, kind: 'execute', status: 'pending', content, rawInput });
    const request: RequestPermissionRequest = {
      sessionId,
      toolCall: { toolCallId, title, kind: 'execute', status: 'pending', content, rawInput },
      options: [
        { optionId: TRUST, name: 'Trust this folder', kind: 'allow_always' },
        { optionId: 'skip', name: "Don't trust: skip them", kind: 'reject_once' },
      ],
      _meta: { delegate: { folderTrust: rawInput } },
    };
    let trusted = false;
    try {
      const response = await ports.ask(request, signal);
      trusted = response.outcome.outcome === 'selected' && response.outcome.optionId === TRUST;
    } catch {
      trusted = false;
    }
    if (trusted) {
      await this.remembered.remember().catch((err: unknown) => ports.log(`could not remember the trust of ${this.folder} in ${this.store} (${err instanceof Error ? err.message : String(err)}): trusted for this session only`));
    }
    const outcome = trusted ? `Trusted: its hooks and MCP servers run (remembered for ${this.folder}).` : 'Not trusted: its hooks and MCP servers are skipped in this session.';
    await ports.send(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: outcome } }] });
    return trusted ? { trusted: true } : { trusted: false, howToTrust: HOW_TO_TRUST };
  }

  private describe(): string {
    const lines = this.commands.map((c) => `- ${printable(c.file)}: ${printable(c.what)}: ${printable(c.command)}`);
    return [`${printable(this.folder)}`, '', 'Its own settings run these commands on this machine, outside the sandbox:', ...lines, '', 'Trust it only if you know its files. A yes is remembered for this folder.'].join('\n');
  }
}
