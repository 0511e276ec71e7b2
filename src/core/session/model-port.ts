/**
 * The model port's face: what a host's own model adapter (the editor's language-model adapter, a test's scripted
 * model) implements and translates. ModelPort is the one call the loop makes; the request, response and callbacks
 * carry the Messages API's wire types (content blocks, messages, tool results and schemas), which an adapter maps
 * to and from its own API. ModelError is how an adapter says a call failed (retryable or not); estimateTextTokens
 * counts tokens where the adapter's API gives no usage.
 *
 * The Anthropic adapter itself loads apart (session/model.ts): loading this face loads no HTTP client.
 */
export { ModelError } from '../llm/types';
export type { ContentBlock, ContentBlockParam, MessageParam, ModelCallbacks, ModelPort, ModelRequest, ModelResponse, ToolResultBlockParam, ToolSchema } from '../llm/types';
export { estimateTextTokens } from '../loop/context-size';
