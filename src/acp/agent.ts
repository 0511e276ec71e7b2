/**
 * Delegate as an ACP agent: the protocol's requests on the official SDK's app API, each handled over AcpSession.
 *
 *   initialize        protocol version, what Delegate offers (load, list, MCP over stdio/HTTP/SSE, embedded
 *                     context), the client's capabilities noted (fs, subagent sessions)
 *   authenticate      the key comes from the environment: ok when one is set, else how to set it
 *   session/new       a fresh session in cwd (the folder's settings, MCP servers: its own and the client's; the
 *                     folder's own hooks and servers wait for its trust, asked at the first prompt: folder-trust.ts)
 *   session/load      a transcript's session, its history replayed as updates, then live again
 *   session/resume    the same without the replay (the client has it); session/close ends one (cancelled, released)
 *   session/list      the sessions kept for a folder, newest first
 *   session/prompt    one run; session/cancel stops it (or, on a child's id, that child)
 *   session/set_config_option, set_mode, set_model   the mode and model selectors (config-options.ts)
 */
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { agent, methods, PROTOCOL_VERSION, RequestError, type AgentApp, type AgentContext, type ClientCapabilities, type McpServer } from '@agentclientprotocol/sdk/unstable';
import { agentFileCommands, folderCommands } from '../core/session/ports';
import { history, isSessionId } from '../core/session/history';
import { AcpSession, type AcpSessionPorts } from './acp-session';
import { clientFileOps } from './client-fs';
import { ClientFolderTrust } from './folder-trust';
import { checkSessionCwd } from './session-cwd';
import { credentials, HOW_TO_AUTHENTICATE, sessionSettings, type AcpSettings } from './session-setup';

declare const DELEGATE_VERSION: string;

const AUTH_METHOD = { id: 'anthropic-api-key', name: 'Anthropic API key', description: `Delegate reads its key from the environment: ${HOW_TO_AUTHENTICATE}` };

export interface DelegateAgent {
  app: AgentApp;
  /** Ends every open session (the connection closed, or a signal). */
  closeAll(reason: string): Promise<void>;
}

export function delegateAgent(settings: AcpSettings, env: NodeJS.ProcessEnv, log: (line: string) => void): DelegateAgent {
  const stored = history({ env, home: homedir() });
  const transcriptRoot = stored.root;
  const sessions = new Map<string, AcpSession>();
  let clientCaps: ClientCapabilities = {};

  /** A session the client may prompt or set a mode on: a root one (a subagent's session is driven by its parent). */
  const find = (sessionId: string): AcpSession => {
    const direct = sessions.get(sessionId);
    if (direct) return direct;
    for (const s of sessions.values()) {
      if (s.owns(sessionId)) throw RequestError.invalidRequest({ sessionId }, "a subagent's session takes no prompts or modes: its parent gives it its task (session/cancel stops it)");
    }
    throw RequestError.sessionNotFound(sessionId);
  };

  const ports = (client: AgentContext, sessionId: string): AcpSessionPorts => {
    const fs = clientCaps.fs;
    const useClientFs = fs?.readTextFile === true || fs?.writeTextFile === true;
    return {
      send: async (sessionId, update) => {
        // A client gone mid-run must not fail the run: the transcript still gets every event.
        await client.notify(methods.client.session.update, { sessionId, update }).catch(() => undefined);
      },
      ask: (request, signal) => client.request(methods.client.session.requestPermission, request, { cancellationSignal: signal, stopWaitingOnCancel: true }),
      subagentSessions: clientCaps.subagents !== undefined && clientCaps.subagents !== null,
      notices: clientCaps.session?.notices !== undefined && clientCaps.session.notices !== null,
      ...(clientCaps.elicitation?.form ? { elicit: (request, signal) => client.request(methods.client.elicitation.create, request, { cancellationSignal: signal, stopWaitingOnCancel: true }) } : {}),
      log,
      ...(settings.confirmFanout ? { fanoutRule: settings.confirmFanout } : {}),
      ...(useClientFs ? { fileOps: clientFs(client, sessionId, fs?.readTextFile === true, fs?.writeTextFile === true) } : {}),
    };
  };

  /** A fresh session, or a stored one (`replay`: its history sent as updates first, as session/load does). */
  const open = async (client: AgentContext, cwd: string, mcpServers: readonly McpServer[], sessionId?: string, replay = true) => {
    await checkSessionCwd(cwd);
    if (!credentials(env)) throw RequestError.authRequired(undefined, `no Anthropic API key: ${HOW_TO_AUTHENTICATE}`);
    const workdir = resolve(cwd);
    const settled = await sessionSettings(workdir, mcpServers, settings, env, transcriptRoot);
    if ('error' in settled) throw RequestError.invalidParams({ cwd }, settled.error);
    for (const note of settled.notes) log(note);
    const { config } = settled;
    // The folder's own hooks and servers wait for its trust: asked of the client at the first prompt if need be.
    const commands = [...folderCommands(workdir, config.files?.commandHooks, config.tools?.mcp, config.files?.skills), ...(await agentFileCommands(workdir, config.files?.agentFiles))];
    const trust = await ClientFolderTrust.of(workdir, commands, settings.trustFolder === true, env);
    const portsFor = (id: string): AcpSessionPorts => ({ ...ports(client, id), ...(trust ? { trust } : {}) });
    if (sessionId === undefined) {
      const id = randomUUID();
      return AcpSession.open({ ...config, persistence: { ...config.persistence, sessionId: id } }, portsFor(id));
    }
    const events = await stored.read(sessionId);
    if (!events) throw RequestError.sessionNotFound(sessionId);
    const session = await AcpSession.open(config, portsFor(sessionId), stored.replay(sessionId, events));
    session.adoptStoredModel(events);
    if (replay) await session.replay(events);
    return session;
  };

  const app = agent({ name: 'delegate' })
    .onRequest(methods.agent.initialize, ({ params }) => {
      clientCaps = params.clientCapabilities ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, resume: {}, close: {} },
        },
        authMethods: [AUTH_METHOD],
        agentInfo: { name: 'delegate', title: 'Delegate', version: typeof DELEGATE_VERSION === 'string' ? DELEGATE_VERSION : 'dev' },
      };
    })
    .onRequest(methods.agent.authenticate, () => {
      if (!credentials(env)) throw RequestError.authRequired(undefined, `no Anthropic API key: ${HOW_TO_AUTHENTICATE}`);
      return {};
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      const session = await open(client, params.cwd, params.mcpServers);
      sessions.set(session.id, session);
      session.attach();
      announceCommands(session);
      return { sessionId: session.id, modes: session.modes(), configOptions: session.configOptions() };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      if (!isSessionId(params.sessionId)) throw RequestError.invalidParams({ sessionId: params.sessionId }, `not a session id: "${params.sessionId}"`);
      // Loading a session open here starts it again from its transcript (one writer at a time).
      await sessions.get(params.sessionId)?.close('loaded again');
      sessions.delete(params.sessionId);
      const session = await open(client, params.cwd, params.mcpServers, params.sessionId);
      sessions.set(session.id, session);
      session.attach();
      announceCommands(session);
      return { modes: session.modes(), configOptions: session.configOptions() };
    })
    // Resume: the session live again without its history sent (the client shows it already); open here: as it is.
    .onRequest(methods.agent.session.resume, async ({ params, client }) => {
      if (!isSessionId(params.sessionId)) throw RequestError.invalidParams({ sessionId: params.sessionId }, `not a session id: "${params.sessionId}"`);
      let session = sessions.get(params.sessionId);
      if (!session) {
        session = await open(client, params.cwd, params.mcpServers ?? [], params.sessionId, false);
        sessions.set(session.id, session);
        session.attach();
      }
      announceCommands(session);
      return { modes: session.modes(), configOptions: session.configOptions() };
    })
    // Close: its prompt cancelled, its agents and commands stopped, its transcript released (load or resume reopens it).
    // One not open here is closed already: success, as ACP recommends (the same end state).
    .onRequest(methods.agent.session.close, async ({ params }) => {
      if (!sessions.has(params.sessionId) && ![...sessions.values()].some((s) => s.owns(params.sessionId))) return {};
      const session = find(params.sessionId);
      sessions.delete(session.id);
      await session.close('the client closed the session');
      return {};
    })
    .onRequest(methods.agent.session.list, async ({ params }) => {
      const found = await stored.list(params.cwd ? { cwd: resolve(params.cwd) } : {});
      return {
        sessions: found.map((s) => ({ sessionId: s.id, cwd: s.cwd ?? '', title: s.title, updatedAt: new Date(s.updatedAt).toISOString() })),
      };
    })
    .onRequest(methods.agent.session.prompt, ({ params }) => find(params.sessionId).prompt(params.prompt))
    .onRequest(methods.agent.session.setMode, async ({ params }) => {
      await find(params.sessionId).setMode(params.modeId);
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params }) => ({ configOptions: await find(params.sessionId).setConfigOption(params.configId, params.value) }))
    // The older model picker (before config options; the SDK's schema no longer names it): still sent by some clients.
    .onRequest(SET_MODEL, setModelParams, async ({ params }) => {
      await find(params.sessionId).setModel(params.modelId);
      return {};
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      for (const s of sessions.values()) if (s.owns(params.sessionId)) s.cancel(params.sessionId);
    });

  return {
    app,
    closeAll: async (reason) => {
      await Promise.all([...sessions.values()].map((s) => s.close(reason)));
      sessions.clear();
    },
  };
}

const SET_MODEL = 'session/set_model';

/** The slash commands, once the response naming the session is out (a client drops updates of an id it does not know). */
function announceCommands(session: AcpSession): void {
  setTimeout(() => void session.announceCommands(), 0);
}

/** session/set_model's params, checked: a bad one is -32602 with what was wrong. */
function setModelParams(raw: unknown): { sessionId: string; modelId: string } {
  const p = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  if (typeof p.sessionId !== 'string' || typeof p.modelId !== 'string') throw RequestError.invalidParams(raw, 'session/set_model takes { sessionId, modelId } (strings)');
  return { sessionId: p.sessionId, modelId: p.modelId };
}

/** The file tools through the client's fs/* (the side it offers); requests name the session that reads. */
function clientFs(client: AgentContext, sessionId: string, read: boolean, write: boolean) {
  return clientFileOps({
    ...(read ? { read: async (path: string, signal?: AbortSignal) => (await client.request(methods.client.fs.readTextFile, { sessionId, path }, signal ? { cancellationSignal: signal, stopWaitingOnCancel: true } : {})).content } : {}),
    ...(write ? { write: async (path: string, content: string) => void (await client.request(methods.client.fs.writeTextFile, { sessionId, path, content })) } : {}),
  });
}
