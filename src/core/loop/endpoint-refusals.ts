/**
 * An Anthropic-compatible endpoint that lacks a feature the loop asked for answers 400: these tell which
 * feature, so the loop turns it off for the session (one notice) and sends the request again without it.
 *
 *   400 … cache_control …                        ─▶ prompt caching off  (the breakpoints, llm/cache-breakpoints.ts)
 *   400 … web_search / server tool / tools.N.type ─▶ web search off      (the server tool, web-search.ts)
 */

/** An endpoint's refusal of `cache_control` (an Anthropic-compatible API without prompt caching). */
export function rejectsCacheControl(err: unknown): boolean {
  return err instanceof Error && /cache_control/i.test(err.message) && /\b400\b|invalid_request|rejected/i.test(err.message);
}

/** An endpoint's refusal of the server tool (an Anthropic-compatible API without web search). */
export function rejectsWebSearch(err: unknown): boolean {
  return err instanceof Error && /web_search|server tool|tool type|tools\.\d+\.type/i.test(err.message) && /\b400\b|invalid_request|rejected/i.test(err.message);
}
