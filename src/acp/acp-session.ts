/**
 * One ACP session: a Delegate session (same id, same transcript) with the client as its approver, its file access,
 * the one ask_user asks, and its audience.
 *
 *   session/prompt ─▶ /command? slash-commands.ts, said as the agent's message (the model sees nothing)
 *                  ─▶ (the first: the folder's trust, if the client is to be asked) ─▶ session.run(text, images) ─▶ bus
 *                  ─▶ SessionUpdates ─▶ session/update …   ─▶ { stopReason, usage }
 *                     (a running command's output: live-output.ts, its card's content as it comes)
 *   session/cancel  on this id ─▶ the prompt's controller (every agent stops)
 *                   on a child's id ─▶ session.cancel(that agent) (it and its descendants; the parent goes on)
 *   session/set_mode, set_config_option, set_model ─▶ the mode or the model (config-options.ts), config_option_update
 */
import { RequestError, type ContentBlock, type PromptResponse, type SessionConfigOption, type SessionModeState } from '@agentclientprotocol/sdk/unstable';
import { createSession, ROOT_AGENT_ID, type Session } from '../core/session';
import { type FileOps } from '../core/session/ports';
import { history, type ResumeState, type SessionHistory } from '../core/session/history';
import type { AcpSessionConfig } from './session-setup';
import { endsCall, type DelegateEvent } from '../core/events';
import { PERMISSION_MODES } from '../core/vocabulary';
import { configOptions, isPermissionMode, MODE_CONFIG_ID, MODEL_CONFIG_ID, modelChoices, modeState, pickModel, type ModelChoice } from './config-options';
import type { ClientFolderTrust } from './folder-trust';
import { clientApprover, type AskClient } from './permission-requests';
import { noticeAsMessage } from './notice-message';
import { asPromptError, blankPromptError } from './prompt-refusal';
import { clientQuestions, type Elicit } from './questions';
import { CallCards } from './call-cards';
import { clientFanout } from './fanout-request';
import { LiveOutput } from './live-output';
import { isImageResource, promptImages } from './prompt-images';
import { runSlashCommand, SLASH_COMMANDS, slashCommandOf } from './slash-commands';
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
  /** The client shows `notice` updates (session.notices); otherwise warnings and errors are said as agent messages. */
  notices: boolean;
  /** A line for the agent's stderr (clients keep it in their logs). */
  log(line: string): void;
  /** The folder's trust, when the client is still to be asked (at the first prompt). */
  trust?: ClientFolderTrust;
  /** When the fan-out card is shown (`--confirm-fanout`); default auto. */
  fanoutRule?: 'auto' | 'always' | 'never';
}

export class AcpSession {
  private running: AbortController | undefined;
  /** The model of the next prompts (the session's, until the client picks another). */
  private modelId: string;
  /** Running commands' output, live in their cards. */
  private readonly live: LiveOutput;

  private constructor(
    readonly session: Session,
    private readonly updates: SessionUpdates,
    private readonly ports: AcpSessionPorts,
    private readonly model: Pick<AcpSessionConfig, 'port' | 'model' | 'workdir'>,
    private readonly stored: SessionHistory,
  ) {
    this.modelId = model.model.id;
    this.live = new LiveOutput(ports.send);
  }

  static async open(config: AcpSessionConfig, ports: AcpSessionPorts, resume?: ResumeState): Promise<AcpSession> {
    // The approver routes by the updates' map, which needs the session's folder: bound once both exist.
    const cards = new CallCards(ports.send);
    const routing = {
      sessionOf: (agentId: string) => updates.sessionOf(agentId),
      describeAgent: (agentId: string) => updates.describeAgent(agentId),
      cardOf: (agentId: string, toolUseId: string) => updates.cardOf(agentId, toolUseId),
      hold: (sessionId: string, toolCallId: string) => cards.hold(sessionId, toolCallId),
    };
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
        fanout: { prompt: clientFanout(routing, ports.ask, ports.send), rule: () => ports.fanoutRule ?? 'auto', confirmAboveUsd: () => undefined },
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
      send: cards.send,
      notices: ports.notices,
    });
    for (const warning of session.toolRuleWarnings) ports.log(warning);
    return new AcpSession(session, updates, ports, { port: config.port, model: config.model, workdir: config.workdir }, stored);
  }

  get id(): string {
    return this.session.id;
  }

  modes(): SessionModeState {
    return modeState(this.session.mode);
  }

  /** The mode and model selectors (session/new, load, resume, set_config_option's answer, config_option_update). */
  configOptions(): SessionConfigOption[] {
    return configOptions(this.session.mode, this.modelId, this.choices());
  }

  /** The slash commands the client may offer (sent once the client knows the session's id). */
  async announceCommands(): Promise<void> {
    await this.ports.send(this.id, { sessionUpdate: 'available_commands_update', availableCommands: SLASH_COMMANDS });
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
        else {
          // Not only in the client's log: the user reads it in the session (notice-message.ts).
          const said = noticeAsMessage(event);
          if (said) await this.ports.send(this.id, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: said } });
        }
      }
      if (event.type === 'tool_output') {
        // A folded child's calls have no card of their own (its task card shows its summary).
        if (event.agentId === ROOT_AGENT_ID || this.ports.subagentSessions) this.live.add(this.updates.sessionOf(event.agentId), event.id, event.text);
        return;
      }
      if (event.type === 'tool_call' && endsCall(event)) this.live.end(event.id);
      await this.updates.handle(event);
    });
  }

  async prompt(blocks: readonly ContentBlock[]): Promise<PromptResponse> {
    if (this.running) throw RequestError.invalidRequest(undefined, 'a prompt is already running in this session: cancel it or wait for its end');
    const images = promptImages(blocks);
    const text = promptText(blocks);
    // Images are a prompt of their own; an empty one (or only audio, which is not taken) is refused before anything is kept.
    const blank = images.length ? undefined : blankPromptError(blocks, text);
    if (blank) throw blank;
    const controller = new AbortController();
    this.running = controller;
    try {
      const command = slashCommandOf(blocks);
      if (command) {
        const said = await runSlashCommand(command, { session: this.session, stored: this.stored, workdir: this.model.workdir, signal: controller.signal });
        await this.ports.send(this.id, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: said } });
        return { stopReason: controller.signal.aborted ? 'cancelled' : 'end_turn' };
      }
      await this.ports.trust?.settle(this.id, this.ports, controller.signal);
      const result = await this.session.run(text, controller.signal, images.length ? { images } : {}).catch((err: unknown) => {
        throw asPromptError(err);
      });
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
    await this.ports.send(this.id, { sessionUpdate: 'current_mode_update', currentModeId: modeId });
    await this.ports.send(this.id, { sessionUpdate: 'config_option_update', configOptions: this.configOptions() });
  }

  /** The model of the next prompts: an offered id or an alias of the table. Between prompts only. */
  async setModel(value: string): Promise<void> {
    const id = pickModel(value, this.choices());
    if (this.running) throw RequestError.invalidRequest({ value }, 'a prompt is running: change the model when it ends');
    // The same port: Delegate's Anthropic client names the model in each request.
    this.session.setModel(this.model.port, id, this.model.model.contextWindow);
    this.modelId = id;
    await this.ports.send(this.id, { sessionUpdate: 'config_option_update', configOptions: this.configOptions() });
  }

  /** The models offered: the session's setting and the alias table's, and the one in use if it is neither. */
  private choices(): ModelChoice[] {
    const choices = modelChoices(this.model.model.id, this.model.model.aliases);
    return choices.some((c) => c.id === this.modelId) ? choices : [{ id: this.modelId, aliases: [] }, ...choices];
  }

  /**
   * A stored session goes on with the model it last ran on (the user's pick, as the transcript's last prompt
   * recorded it), not the setting's. Before it is live: no update (the response carries the options).
   */
  adoptStoredModel(events: readonly DelegateEvent[]): void {
    const last = events.findLast((e) => e.type === 'agent_started' && e.parentId === null);
    if (last?.type !== 'agent_started' || last.model === this.modelId) return;
    this.session.setModel(this.model.port, last.model, this.model.model.contextWindow);
    this.modelId = last.model;
  }

  /** session/set_config_option: the mode or the model; the whole set back. */
  async setConfigOption(configId: string, value: string | boolean): Promise<SessionConfigOption[]> {
    if (typeof value !== 'string') throw RequestError.invalidParams({ configId, value }, `"${configId}" takes one of its options' values, not ${JSON.stringify(value)}`);
    if (configId === MODE_CONFIG_ID) await this.setMode(value);
    else if (configId === MODEL_CONFIG_ID) await this.setModel(value);
    else throw RequestError.invalidParams({ configId }, `unknown config option "${configId}" (${MODE_CONFIG_ID}, ${MODEL_CONFIG_ID})`);
    return this.configOptions();
  }

  async close(reason: string): Promise<void> {
    this.running?.abort();
    this.live.close();
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
        else if (!isImageResource(block)) parts.push(`[@${block.resource.uri}](${block.resource.uri}) (binary content not included)`);
        break;
      default:
        break;
    }
  }
  return parts.join('\n\n');
}
