/**
 * A session notice (an MCP server that failed, a folder config that cannot be used, an endpoint without caching)
 * for a client without `session.notices`: said in the session as a paragraph of the agent's message, so the user
 * reads it where they read everything else instead of only in the client's log of stderr. Info notices (a server
 * connected) stay on stderr.
 *
 *   notice ─▶ stderr always ─▶ client has notices? ─▶ `notice` update
 *                                        otherwise ─▶ warning / error: agent_message_chunk "> **Delegate warning:** …"
 */
import type { EventOf } from '../core/events';

export function noticeAsMessage(notice: EventOf<'notice'>): string | undefined {
  if (notice.level === 'info') return undefined;
  return `\n\n> **Delegate ${notice.level}:** ${notice.text}${notice.source ? ` (${notice.source})` : ''}\n\n`;
}
