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
 *   await testSession({ model }, { limits: { maxBudgetUsd: 5 } });        any group of the SessionConfig patched over
 *                                                                         (session-config.ts's testConfig)
 */
import type { DelegateEvent } from '../../src/core/events';
import { createSession, type Session } from '../../src/core/session';
import type { Approver } from '../../src/core/session/ports';
import type { ModelPort } from '../../src/core/session/model-port';
import { createAnthropicModel } from '../../src/core/session/model';
import type { MessagesApiServer } from '../fixtures/messages-api-server';
import { afterThisTest } from './cleanup';
import { testConfig, type ConfigBase, type ConfigPatch } from './session-config';
import { tempDir } from './temp-dirs';

/** Answers every question with yes. */
const allowAll: Approver = { ask: async () => ({ decision: 'allow' }) };
/** Answers every question with no. */
export const denyAll: Approver = { ask: async () => ({ decision: 'deny' }) };

/** testConfig's base, each part over the kit's default; `api` (the local server) stands for `model`. */
export type TestSessionOptions = Partial<ConfigBase> & { api?: MessagesApiServer };

export interface TestSession {
  session: Session;
  /** Every event of the session so far (the bus's, in order). */
  events: DelegateEvent[];
  workdir: string;
  transcriptRoot: string;
}

export async function testSession(options: TestSessionOptions = {}, patch: ConfigPatch = {}): Promise<TestSession> {
  const { api, ...base } = options;
  const model: ModelPort | undefined = base.model ?? (api ? createAnthropicModel({ apiKey: 'test-key', baseURL: api.baseURL }) : undefined);
  if (!model) throw new Error('testSession: give it a model (a ScriptedModel) or an api (the local Messages-API server)');
  const dirs = { workdir: base.workdir ?? tempDir('delegate-ws-'), transcriptRoot: base.transcriptRoot ?? tempDir('delegate-tr-') };
  const session = await createSession(testConfig({ modelId: 'claude-test', mode: 'bypassPermissions', approver: allowAll, ...base, ...dirs, model }, patch));
  afterThisTest(async () => {
    await session.shutdown('the test ended', 200);
    session.close();
  });
  const events: DelegateEvent[] = [];
  session.bus.subscribe((e) => void events.push(e));
  return { session, events, ...dirs };
}

