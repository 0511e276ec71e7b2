/**
 * Web search through the Messages API's server-side tool, where the model's provider offers it:
 *
 *   request.serverTools = [{type: web_search_20250305, name: web_search}] ─▶ the API searches by itself
 *   response: server_tool_use {query} + web_search_tool_result [{title, url}…] ─▶ kept in the assistant
 *   message as they are (sent back unchanged) and shown as `web_search` rows: a tool_call record, pending then ended
 *
 * An endpoint that rejects the tool turns it off for the session (with one notice) and the request is
 * sent again without it; elsewhere the tool is simply absent.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock } from '../llm/types';

export const WEB_SEARCH_TOOL: Anthropic.WebSearchTool20250305 = { type: 'web_search_20250305', name: 'web_search', max_uses: 5 };

export interface ServerSearch {
  id: string;
  query: string;
  input: unknown;
  output: string;
  isError: boolean;
}

/** The searches the API ran in one response, each with what it found (titles and addresses). */
export function serverSearches(content: readonly ContentBlock[]): ServerSearch[] {
  const results = new Map<string, ContentBlock>();
  for (const b of content) if (b.type === 'web_search_tool_result') results.set(b.tool_use_id, b);
  const out: ServerSearch[] = [];
  for (const b of content) {
    if (b.type !== 'server_tool_use' || b.name !== 'web_search') continue;
    const query = typeof (b.input as { query?: unknown })?.query === 'string' ? (b.input as { query: string }).query : '';
    const result = results.get(b.id);
    let output = '(no result)';
    let isError = true;
    if (result?.type === 'web_search_tool_result') {
      if (Array.isArray(result.content)) {
        isError = false;
        output = result.content.length ? result.content.map((r) => `${r.title} — ${r.url}`).join('\n') : 'No results.';
      } else {
        output = `web search failed: ${(result.content as { error_code?: string }).error_code ?? 'unknown error'}`;
      }
    }
    out.push({ id: b.id, query, input: b.input, output, isError });
  }
  return out;
}
