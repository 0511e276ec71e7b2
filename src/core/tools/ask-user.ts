/**
 * `ask_user`: an agent (the main one or any subagent) asks the person at the keyboard a question, with optional
 * answers to pick from, and waits. The host answers through the `UserQuestions` port:
 *
 *   ask_user{question, options?} ─▶ UserQuestions.ask({agent, question, options}) ─▶ the editor asks (naming the
 *                                                                                     agent); the answer is the result
 *   no port (the CLI, a CI step) ─▶ an error result: nobody can answer, decide yourself and say so in the report
 *
 * An answer is information, never an approval: permissions are asked for and granted only by the permission flow.
 */
import type { AgentIdentity } from '../vocabulary';
import { asRecord, type ParseResult, type Tool } from './types';

export interface AskUserInput {
  question: string;
  options: string[];
}

export interface UserQuestion {
  /** Who asks (the editor names it: the main agent, or the subagent and its task). */
  agent: AgentIdentity;
  question: string;
  /** Answers to pick from; the user may still type another. Empty: a free answer. */
  options: string[];
}

/** The host's way to ask. `undefined`: the user dismissed the question without answering. */
export interface UserQuestions {
  ask(question: UserQuestion, signal: AbortSignal): Promise<string | undefined>;
}

const MAX_OPTIONS = 8;
const MAX_QUESTION = 2_000;

const NO_ONE_TO_ASK =
  'No user can answer questions in this run (it is headless). Decide yourself from what you know, go on, and say in your report what you decided and why.';

function parse(raw: unknown): ParseResult<AskUserInput> {
  const r = asRecord(raw);
  if (!r || typeof r.question !== 'string' || r.question.trim() === '') return { ok: false, error: 'ask_user needs `question`: a non-empty string' };
  if (r.question.length > MAX_QUESTION) return { ok: false, error: `ask_user: the question is ${r.question.length} characters; keep it under ${MAX_QUESTION}` };
  const options = r.options ?? [];
  if (!Array.isArray(options) || !options.every((o) => typeof o === 'string' && o.trim() !== '')) {
    return { ok: false, error: 'ask_user: `options`, when given, is a list of non-empty strings' };
  }
  if (options.length > MAX_OPTIONS) return { ok: false, error: `ask_user: at most ${MAX_OPTIONS} options (got ${options.length})` };
  return { ok: true, input: { question: r.question.trim(), options: options.map((o: string) => o.trim()) } };
}

/**
 * `who` finds the asking agent's identity (the session's running agents); `questions` is the host's port, absent
 * where nobody can answer.
 */
export function createAskUserTool(who: (agentId: string) => AgentIdentity | undefined, questions?: UserQuestions): Tool<AskUserInput> {
  return {
    name: 'ask_user',
    description:
      'Ask the user and wait for the answer: only for a decision only the user can make (an ambiguous requirement, real trade-offs), ' +
      'never for permission (calls are approved separately) or facts you can find. In headless runs you are told to decide yourself.',
    inputSchema: {
      type: 'object',
      properties: {
        question: { type: 'string', description: 'Self-contained: the user may not have followed your work.' },
        options: { type: 'array', items: { type: 'string' }, description: `Up to ${MAX_OPTIONS} choices (the user may type another).` },
      },
      required: ['question'],
    },
    kind: 'read',
    readOnly: true,
    parse,
    describe: (input) => ({ summary: (input.question.split('\n')[0] ?? '').slice(0, 120), paths: [] }),
    async execute(input, ctx) {
      if (!questions) return { content: NO_ONE_TO_ASK, isError: true };
      const agent = who(ctx.agentId) ?? { agentId: ctx.agentId, parentId: null, depth: 0 };
      let answer: string | undefined;
      try {
        answer = await questions.ask({ agent, question: input.question, options: input.options }, ctx.signal);
      } catch (err) {
        if (ctx.signal.aborted) return { content: 'The run was stopped while the question waited for an answer.', isError: true };
        return { content: `The question could not be asked: ${err instanceof Error ? err.message : String(err)}. Decide yourself and say so in your report.`, isError: true };
      }
      if (ctx.signal.aborted) return { content: 'The run was stopped while the question waited for an answer.', isError: true };
      if (answer === undefined || answer.trim() === '') {
        return { content: 'The user dismissed the question without answering. Decide yourself, and say in your report what you decided and why.' };
      }
      return { content: `The user answered: ${answer.trim()}` };
    },
  };
}
