/**
 * A core session for a test, built as the hosts build theirs (createSession through the face), with what tests
 * share: a workspace and a transcript root of their own, bypassPermissions, an approver that allows, every event
 * recorded. When the test ends it is shut down (agents stopped, process groups killed) and closed, then its
 * folders are removed (cleanup.ts).
 *
 *   const model = new ScriptedModel().script('default', { text: 'hi' });
 *   const { session, events } = await testSession({ model });            a scripted model, in-process
 *   const { session } = await testSession({ api, mode: 'default' });      the SDK client over HTTP, against the
 *                                                                         local Messages-API server (test/fixtures)
 */
import type { DelegateEvent } from '../../src/core/events';
import { createSession, type Approver, type Session, type SessionConfig } from '../../src/core/session';
import { createAnthropicModel } from '../../src/core/session/model';
import type { MessagesApiServer } from '../fixtures/messages-api-server';
import { afterThisTest } from './cleanup';
import { tempDir } from './temp-dirs';

/** Answers every question with yes. */
const allowAll: Approver = { ask: async () => ({ decision: 'allow' }) };
/** Answers every question with no. */
export const denyAll: Approver = { ask: async () => ({ decision: 'deny' }) };

/** Any SessionConfig field over the defaults; `api` (the local server) stands for `model`. */
export type TestSessionOptions = Partial<SessionConfig> & { api?: MessagesApiServer };

export interface TestSession {
  session: Session;
  /** Every event of the session so far (the bus's, in order). */
  events: DelegateEvent[];
  workdir: string;
  transcriptRoot: string;
}

export async function testSession(options: TestSessionOptions = {}): Promise<TestSession> {
  const { api, ...config } = options;
  const model = config.model ?? (api ? createAnthropicModel({ apiKey: 'test-key', baseURL: api.baseURL }) : undefined);
  if (!model) throw new Error('testSession: give it a model (a ScriptedModel) or an api (the local Messages-API server)');
  const dirs = { workdir: config.workdir ?? tempDir('delegate-ws-'), transcriptRoot: config.transcriptRoot ?? tempDir('delegate-tr-') };
  const session = await createSession({ modelId: 'claude-test', mode: 'bypassPermissions', approver: allowAll, ...config, ...dirs, model });
  afterThisTest(async () => {
    await session.shutdown('the test ended', 200);
    session.close();
  });
  const events: DelegateEvent[] = [];
  session.bus.subscribe((e) => void events.push(e));
  return { session, events, ...dirs };
}

