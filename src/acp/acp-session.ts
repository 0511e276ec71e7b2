/**
 * One ACP session: a Delegate session (same id, same transcript) with the client as its approver, its file access,
 * the one ask_user asks, and its audience.
 *
 *   session/prompt ─▶ (the first: the folder's trust, if the client is to be asked) ─▶ session.run(text) ─▶ bus
 *                  ─▶ SessionUpdates ─▶ session/update …   ─▶ { stopReason, usage }
 *   session/cancel  on this id ─▶ the prompt's controller (every agent stops)
 *                   on a child's id ─▶ session.cancel(that agent) (it and its descendants; the parent goes on)
 *   session/set_mode ─▶ the permission policy's mode, and current_mode_update
 */
import { RequestError, type ContentBlock, type PromptResponse, type SessionModeState, type SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { createSession, ROOT_AGENT_ID, type Session } from '../core/session';
import { type FileOps } from '../core/session/ports';
import { history, type ResumeState } from '../core/session/history';
import type { AcpSessionConfig } from './session-setup';
import type { DelegateEvent } from '../core/events';
import { PERMISSION_MODES, type PermissionMode } from '../core/vocabulary';
import type { ClientFolderTrust } from './folder-trust';
import { clientApprover, type AskClient } from './permission-requests';
import { clientQuestions, type Elicit } from './questions';
import { acpUsage, SessionUpdates, stopReasonOf, type SendUpdate } from './updates';

export interface AcpSessionPorts {
  send: SendUpdate;
  ask: AskClient;
  /** The client's fs, when it offers one. */
  fileOps?: FileOps;
  /** The client's form elicitation, when it offers one: ask_user's questions. */
  elicit?: Elicit;
  /** The client shows children as sessions of their own. */
  subagentSessions: boolean;
  /** The client shows `notice` updates (session.notices); otherwise notices go to stderr only. */
  notices: boolean;
  /** A line for the agent's stderr (clients keep it in their logs). */
  log(line: string): void;
  /** The folder's trust, when the client is still to be asked (at the first prompt). */
  trust?: ClientFolderTrust;
}

const MODE_NAMES: Record<PermissionMode, { name: string; description: string }> = {
  default: { name: 'Default', description: 'Asks before edits, commands and anything outside the workspace' },
  acceptEdits: { name: 'Accept edits', description: 'File edits in the workspace go ahead; commands still ask' },
  plan: { name: 'Plan', description: 'Read-only: looks and plans, changes nothing' },
  bypassPermissions: { name: 'Bypass permissions', description: 'Nothing asks (the workspace confinement and the deny list still hold)' },
};

function isPermissionMode(id: string): id is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(id);
}

export class AcpSession {
  private running: AbortController | undefined;

  private constructor(
    readonly session: Session,
    private readonly updates: SessionUpdates,
    private readonly ports: AcpSessionPorts,
  ) {}

  static async open(config: AcpSessionConfig, ports: AcpSessionPorts, resume?: ResumeState): Promise<AcpSession> {
    // The approver routes by the updates' map, which needs the session's folder: bound once both exist.
    const routing = { sessionOf: (agentId: string) => updates.sessionOf(agentId), describeAgent: (agentId: string) => updates.describeAgent(agentId) };
    const { port, ...settings } = config;
    const session = await createSession({
      ...settings,
      persistence: { ...settings.persistence, ...(resume ? { resume } : {}) },
      ports: {
        model: port,
        approver: clientApprover(config.workdir, routing, ports.ask),
        ...(ports.fileOps ? { fileOps: ports.fileOps } : {}),
        ...(ports.elicit ? { questions: clientQuestions(routing, ports.elicit) } : {}),
        ...(ports.trust ? { folderTrust: ports.trust } : {}),
      },
    });
    const stored = history(settings.persistence.transcriptRoot);
    const updates: SessionUpdates = new SessionUpdates({
      sessionId: session.id,
      rootAgentId: ROOT_AGENT_ID,
      workdir: config.workdir,
      readBlob: async (hash) => (await stored.blob(session.id, hash))?.toString('utf8'),
      subagentSessions: ports.subagentSessions,
      contextWindow: () => session.context.window,
      send: ports.send,
      notices: ports.notices,
    });
    for (const warning of session.toolRuleWarnings) ports.log(warning);
    return new AcpSession(session, updates, ports);
  }

  get id(): string {
    return this.session.id;
  }

  modes(): SessionModeState {
    return {
      currentModeId: this.session.mode,
      availableModes: PERMISSION_MODES.map((id) => ({ id, ...MODE_NAMES[id] })),
    };
  }

  /** A loaded session's history, as updates (before the live ones start). */
  async replay(events: readonly DelegateEvent[]): Promise<void> {
    for (const event of events) await this.updates.handle(event, true);
  }

  /** Live from now on: the bus's events go to the client. */
  attach(): void {
    this.session.subscribe(async (event) => {
      if (event.type === 'notice') {
        this.ports.log(`${event.level}: ${event.text}${event.source ? ` (${event.source})` : ''}`);
        if (this.ports.notices) await this.ports.send(this.id, { sessionUpdate: 'notice', severity: event.level, title: event.text, ...(event.source ? { description: event.source } : {}) });
      }
      await this.updates.handle(event);
    });
  }

  async prompt(blocks: readonly ContentBlock[]): Promise<PromptResponse> {
    if (this.running) throw RequestError.invalidRequest(undefined, 'a prompt is already running in this session: cancel it or wait for its end');
    const controller = new AbortController();
    this.running = controller;
    try {
      await this.ports.trust?.settle(this.id, this.ports, controller.signal);
      const result = await this.session.run(promptText(blocks), controller.signal);
      if (result.status === 'error') throw RequestError.internalError({ status: result.status }, result.error ?? 'the run failed');
      return { stopReason: controller.signal.aborted ? 'cancelled' : stopReasonOf(result.status), usage: acpUsage(result.usage) };
    } finally {
      this.running = undefined;
    }
  }

  /** This session's id: the prompt stops (every agent); a child's: that child alone. */
  cancel(sessionId: string): void {
    if (sessionId === this.id) return void this.running?.abort();
    const agentId = this.updates.agentOfSession(sessionId);
    if (agentId) this.session.cancel(agentId);
  }

  owns(sessionId: string): boolean {
    return sessionId === this.id || this.updates.agentOfSession(sessionId) !== undefined;
  }

  async setMode(modeId: string): Promise<void> {
    if (!isPermissionMode(modeId)) throw RequestError.invalidParams({ modeId }, `unknown mode "${modeId}" (${PERMISSION_MODES.join(', ')})`);
    this.session.setMode(modeId);
    const update: SessionUpdate = { sessionUpdate: 'current_mode_update', currentModeId: modeId };
    await this.ports.send(this.id, update);
  }

  async close(reason: string): Promise<void> {
    this.running?.abort();
    this.ports.trust?.close();
    await this.session.shutdown(reason);
    this.session.close();
  }
}

/** The prompt's blocks as the text the agent gets: embedded resources as tagged context, links as links. */
function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'resource_link':
        parts.push(`[@${block.name}](${block.uri})`);
        break;
      case 'resource':
        if ('text' in block.resource) parts.push(`<context uri="${block.resource.uri}">\n${block.resource.text}\n</context>`);
        else parts.push(`[@${block.resource.uri}](${block.resource.uri}) (binary content not included)`);
        break;
      default:
        break;
    }
  }
  return parts.join('\n\n');
}
