/**
 * web_fetch as the session wires it (the CLI's own HTTP client and the environment's proxy check), with every
 * option a test may override: the tool itself declares the fetch it needs and imports no HTTP client.
 */
import { envProxyTakes, httpFetch } from '../../src/core/llm/http-fetch';
import { createWebFetchTool as createTool, type WebFetchOptions as ToolOptions } from '../../src/core/tools/web-fetch';

export type { WebFetchInput } from '../../src/core/tools/web-fetch';
export type WebFetchOptions = Partial<ToolOptions>;

export function createWebFetchTool(opts: WebFetchOptions = {}): ReturnType<typeof createTool> {
  return createTool({ fetch: httpFetch, proxied: envProxyTakes, ...opts });
}
