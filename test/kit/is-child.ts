/**
 * Which agent sent a model request, for every suite: a subagent's system prompt opens with "You are a subagent"
 * (core/loop/prompts.ts). Takes the wire request the local Messages-API server recorded, or the core's own.
 */
import type { ModelRequest } from '../../src/core/llm/types';
import { systemText, type RecordedRequest } from '../fixtures/messages-api-server';

const SUBAGENT_MARK = 'You are a subagent';

export function isChild(req: RecordedRequest | ModelRequest): boolean {
  return ('body' in req ? systemText(req) : req.system).includes(SUBAGENT_MARK);
}
