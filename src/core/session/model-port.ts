/**
 * The model port's face: what a host's own model adapter implements. ModelPort is the one call the loop makes, in
 * the Messages API's wire types (a test's scripted model speaks those). A host over another chat API (the editor's
 * Language Model API) gives a ChatProvider instead — role, text and tool parts — and chatModelPort maps the
 * Messages API to it, counts tokens and builds the usage (core/llm/chat-model.ts). ModelError is how an adapter says
 * a call failed (retryable or not).
 *
 * The Anthropic adapter itself loads apart (session/model.ts): loading this face loads no HTTP client.
 */
export { ModelError } from '../llm/types';
export type { ModelPort } from '../llm/types';
export { chatModelPort, type ChatMessage, type ChatProvider, type ChatTool } from '../llm/chat-model';
