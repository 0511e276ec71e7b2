/**
 * The second face (hosts may import it; see index.ts): the model adapter and HTTP client, kept apart so the editor
 * loads the Anthropic SDK only when it builds a model (`await import('../core/session/model')`), not with the session.
 */
export { createAnthropicModel } from '../llm/anthropic-model';
export { createHttpFetch } from '../llm/http-fetch';
