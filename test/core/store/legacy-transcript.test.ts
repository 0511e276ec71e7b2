/**
 * Transcripts written before call records (a call as `tool_started` + `tool_finished`) replay as they always did: the
 * fixtures under test/fixtures/transcripts/before-call-records are real sessions of the CLI as an older Delegate
 * wrote them (with-kinds: events that carry the tool's kind/summary/paths; before-kinds: the oldest, without), and
 * expected.json holds what that Delegate made of them: the panel's tree, the resumed conversation, the agent
 * records (the editor's "open record") and the read_subagent pages. Read through today's reader, each comes out the
 * same.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { childPage } from '../../../src/core/delegation/child-pages';
import { replaySession } from '../../../src/core/session/replay';
import { readAgentEvents, readTranscript, sessionFileOf } from '../../../src/core/store/transcript-reader';
import { upgradeEvent } from '../../../src/core/store/legacy-events';
import { agentRecord } from '../../../src/view-model/agent-record';
import { applyEvents, createSessionView } from '../../../src/view-model/session-view';

const FIXTURES = join(import.meta.dirname, '../../fixtures/transcripts/before-call-records');
const SESSION = '871d44f7-2f70-4ce3-8555-885289e560d9';

interface Expected {
  tree: unknown;
  history: unknown;
  records: Record<string, string>;
  pages: Record<string, string>;
}

/** A calls page with each call's summary cut. */
const spansCut = (page: string): string => page.replace(/^(#\d+ \S+) `[^`]*`/gm, '$1');

/** A record with each call heading cut to its tool's name. */
const headingsCut = (record: string): string => record.replace(/^(#+ `[^`]+`).*$/gm, '$1');

describe('transcripts written before call records', () => {
  for (const variant of readdirSync(FIXTURES)) {
    describe(variant, () => {
      const root = join(FIXTURES, variant);
      const expected = JSON.parse(readFileSync(join(root, 'expected.json'), 'utf8')) as Expected;

      it('hold the old shape (tool_started / tool_finished), and the reader gives tool_call patches', async () => {
        const raw = readFileSync(sessionFileOf(root, SESSION), 'utf8');
        assert.match(raw, /"type":"tool_started"/);
        assert.match(raw, /"type":"tool_finished"/);
        const events = await readTranscript(root, SESSION);
        assert.ok(events);
        assert.ok(events.some((e) => e.type === 'tool_call'));
        assert.ok(!events.some((e) => (e.type as string) === 'tool_started' || (e.type as string) === 'tool_finished'));
      });

      it('the panel builds the same tree', async () => {
        const events = await readTranscript(root, SESSION);
        const state = createSessionView();
        applyEvents(state, events ?? []);
        assert.deepEqual(JSON.parse(JSON.stringify(state)), expected.tree);
      });

      it('resume rebuilds the same conversation', async () => {
        const events = (await readTranscript(root, SESSION)) ?? [];
        assert.deepEqual(JSON.parse(JSON.stringify(replaySession(SESSION, events, 'main').history)), expected.history);
      });

      it('the agent records and read_subagent pages say the same', async () => {
        const events = (await readTranscript(root, SESSION)) ?? [];
        const children = replaySession(SESSION, events, 'main').children ?? [];
        assert.ok(children.length > 0);
        for (const child of children) {
          // A call's heading now says its record's summary, the one line its row shows (the oldest said only the name).
          const record = agentRecord(events, child.id) ?? '';
          assert.equal(headingsCut(record), headingsCut(expected.records[child.id] ?? ''), `the record of ${child.id}`);
          const own = await readAgentEvents(join(root, SESSION, 'subagents', `agent-${child.id}.jsonl`));
          const page = async (what: 'calls' | 'transcript'): Promise<unknown> =>
            (await childPage(child, own, { id: child.id, what, offset: 0, limit: 50, diff: false }, { workdir: root })).content;
          // A call of the oldest transcripts (no summary in its event) says its row's summary, where it said its input JSON.
          assert.equal(spansCut(String(await page('calls'))), spansCut(expected.pages[child.id] ?? ''), `the calls page of ${child.id}`);
          assert.equal(await page('transcript'), expected.pages[`${child.id} transcript`], `the transcript page of ${child.id}`);
        }
      });
    });
  }

  it('a line of another type passes through as it is', () => {
    const notice = { seq: 1, time: 1, sessionId: 's', agentId: 'main', parentId: null, type: 'notice', level: 'info', text: 'hi' } as const;
    assert.equal(upgradeEvent(notice), notice);
  });
});
