/**
 * The session's base tools, built once into its ToolCatalog: bash and the file tools (over the sandbox, the change
 * tracker and the host's file ops), glob and grep, web_fetch (answering about a page with the session's model at the
 * time of the call), ask_user (through the host's questions, or saying nobody can answer), less what is disallowed.
 * MCP tools join the catalog later, as their servers connect (session-commands.ts).
 */
import type { AgentIdentity } from '../vocabulary';
import type { ChangeTracker } from '../changes/change-tracker';
import { createHttpFetch, envProxyTakes, httpFetch } from '../llm/http-fetch';
import type { ModelAccess } from '../loop/types';
import type { Sandbox } from '../sandbox/sandbox';
import type { ToolEnv } from '../secrets/tool-env';
import { createAskUserTool } from '../tools/ask-user';
import { createBaseTools } from '../tools/base-tools';
import { findRipgrep } from '../tools/ripgrep';
import type { ProcessGroups } from '../tools/process-groups';
import { createWebFetchTool } from '../tools/web-fetch';
import type { SessionPorts } from './session-config';
import { ToolCatalog } from './tool-catalog';

export interface SessionToolsOptions {
  workdir: string;
  bashTimeoutMs: number;
  env: ToolEnv;
  sandbox: Sandbox;
  changes: ChangeTracker;
  processes: ProcessGroups;
  /** The model web_fetch asks about a page: read at each call (setModel may have changed it). */
  models: ModelAccess;
  ports: Pick<SessionPorts, 'httpAgents' | 'ripgrepCandidates' | 'fileOps' | 'questions'>;
  /** Who is asking, for ask_user's question. */
  identityOf: (agentId: string) => AgentIdentity | undefined;
  /** Whether the session offers a tool (not disallowed). */
  offers: (name: string) => boolean;
}

export function createSessionTools(o: SessionToolsOptions): ToolCatalog {
  const ripgrepPath = o.ports.ripgrepCandidates ? findRipgrep(o.ports.ripgrepCandidates) : undefined;
  // web_fetch answers a prompt about a page with the session's own model (a request without tools).
  const webFetch = createWebFetchTool({
    // The host's HTTP client (the editor's honours its proxy settings), else the CLI's own; and the proxy check.
    fetch: o.ports.httpAgents === 'host' ? createHttpFetch('host') : httpFetch,
    proxied: envProxyTakes,
    ask: async (page, prompt, url, signal) => {
      const response = await o.models.model.stream(
        {
          model: o.models.modelId,
          maxTokens: 2048,
          thinking: 'off', // a short answer about a page: no thinking eating its 2,048 tokens
          system: 'You answer a question about a web page from its content alone, precisely and briefly. Say so when the page does not answer it.',
          messages: [{ role: 'user', content: `<page url="${url}">\n${page.slice(0, 200_000)}\n</page>\n\n${prompt}` }],
          tools: [],
        },
        signal,
        {},
      );
      return response.content.map((b) => (b.type === 'text' ? b.text : '')).join('').trim();
    },
  });
  const tools = createBaseTools(o.workdir, {
    defaultTimeoutMs: o.bashTimeoutMs,
    maxTimeoutMs: Math.max(o.bashTimeoutMs, 600_000),
    // bash keeps this much in memory and streams a larger output whole to the call's file beside the transcript.
    maxOutputChars: 1_000_000,
    groups: o.processes,
    env: o.env,
    ...(ripgrepPath ? { ripgrepPath } : {}),
    launcher: o.sandbox,
    changes: o.changes,
    ...(o.ports.fileOps ? { ops: o.ports.fileOps } : {}),
  })
    .with(webFetch)
    // Where the host gives no way to ask (the CLI), the tool says so and the agent decides itself.
    .with(createAskUserTool(o.identityOf, o.ports.questions))
    // A disallowed tool is not offered at all (MCP tools are filtered the same way as they connect).
    .filter(o.offers);
  return new ToolCatalog(tools);
}
