/**
 * An MCP tool result as the text our tool results carry:
 *
 *   text                  as is
 *   image, audio          a short note: [image: image/png, 1.2 KB]  (the bytes are not sent on to the model)
 *   resource (embedded)   its text, headed by its URI; a binary one as a note
 *   resource_link         a note with its URI, name and description
 *   structuredContent     JSON, when the result has no content blocks
 *   isError               an error result
 *
 * Parts are joined by blank lines; cutting a long result is the loop's output limit's job.
 */
import type { ToolResult } from '../tools/types';

export function mcpResultToToolResult(result: unknown): ToolResult {
  const r = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  const parts: string[] = [];
  const content = Array.isArray(r.content) ? r.content : [];
  for (const block of content) parts.push(blockText(block));
  if (parts.length === 0 && r.structuredContent !== undefined) parts.push(JSON.stringify(r.structuredContent, null, 2));
  // The SDK's compatibility shape for servers of the 2024-10 protocol: { toolResult }.
  if (parts.length === 0 && r.toolResult !== undefined) parts.push(typeof r.toolResult === 'string' ? r.toolResult : JSON.stringify(r.toolResult));
  const text = parts.join('\n\n');
  if (r.isError === true) return { content: text || 'The tool reported an error without a message.', isError: true };
  return { content: text || '(the tool returned no content)' };
}

function blockText(block: unknown): string {
  if (typeof block !== 'object' || block === null) return String(block);
  const b = block as Record<string, unknown>;
  const str = (key: string): string | undefined => (typeof b[key] === 'string' ? (b[key] as string) : undefined);
  switch (b.type) {
    case 'text':
      return str('text') ?? '';
    case 'image':
    case 'audio':
      return `[${b.type}: ${str('mimeType') ?? 'unknown type'}, ${formatBytes(base64Bytes(str('data') ?? ''))}]`;
    case 'resource': {
      const res = (typeof b.resource === 'object' && b.resource !== null ? b.resource : {}) as Record<string, unknown>;
      const uri = typeof res.uri === 'string' ? res.uri : '(no uri)';
      if (typeof res.text === 'string') return `[resource ${uri}]\n${res.text}`;
      const mime = typeof res.mimeType === 'string' ? res.mimeType : 'binary';
      return `[resource ${uri}: ${mime}, ${formatBytes(base64Bytes(typeof res.blob === 'string' ? res.blob : ''))}]`;
    }
    case 'resource_link': {
      const what = [str('name'), str('mimeType')].filter(Boolean).join(', ');
      const description = str('description');
      return `[resource link: ${str('uri') ?? '(no uri)'}${what ? ` (${what})` : ''}${description ? ` — ${description}` : ''}]`;
    }
    default:
      return `[${typeof b.type === 'string' ? b.type : 'unknown'} content]`;
  }
}

/** Decoded size of base64 text, without decoding it. */
function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
