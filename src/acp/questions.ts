/**
 * `ask_user` through the client, when it offers form elicitation (`clientCapabilities.elicitation.form`): the
 * question as an `elicitation/create` form in the asking agent's session, naming that agent.
 *
 *   ask_user{question, options} ─▶ elicitation/create { message: "The main agent asks: …",
 *                                    requestedSchema: { answer: one of the options, other: a typed answer } }
 *   accept ─▶ the typed answer, else the picked option      decline / cancel / no answer ─▶ dismissed (undefined)
 *
 * Without the capability the session has no UserQuestions port: the tool tells the agent to decide itself.
 */
import type { UserQuestion, UserQuestions } from '../core/session/ports';
import type { CreateElicitationRequest, CreateElicitationResponse, ElicitationSchema } from '@agentclientprotocol/sdk/unstable';
import type { PermissionRouting } from './permission-requests';

export type Elicit = (request: CreateElicitationRequest, signal: AbortSignal) => Promise<CreateElicitationResponse>;

export function clientQuestions(routing: PermissionRouting, elicit: Elicit): UserQuestions {
  return {
    async ask(q: UserQuestion, signal: AbortSignal) {
      const who = routing.describeAgent(q.agent.agentId);
      let response: CreateElicitationResponse;
      try {
        response = await elicit(
          {
            mode: 'form',
            sessionId: routing.sessionOf(q.agent.agentId),
            message: `${who[0]?.toUpperCase() ?? ''}${who.slice(1)} asks: ${q.question}`,
            requestedSchema: schemaFor(q),
          },
          signal,
        );
      } catch (err) {
        if (signal.aborted) return undefined;
        throw err;
      }
      if (response.action !== 'accept' || !('content' in response)) return undefined;
      const content = (response.content ?? {}) as Record<string, unknown>;
      const typed = typeof content.other === 'string' ? content.other.trim() : '';
      const picked = typeof content.answer === 'string' ? content.answer.trim() : '';
      return typed || picked || undefined;
    },
  };
}

function schemaFor(q: UserQuestion): ElicitationSchema {
  if (q.options.length === 0) return { type: 'object', properties: { answer: { type: 'string', title: 'Your answer' } }, required: ['answer'] };
  return {
    type: 'object',
    properties: {
      answer: { type: 'string', title: 'Pick one', oneOf: q.options.map((o) => ({ const: o, title: o })) },
      other: { type: 'string', title: 'Or your own answer' },
    },
  };
}
