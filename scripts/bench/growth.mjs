// Section 4: how much the parent's context grows per delegated task, against doing the same work inline.
//   A: the parent reads 20 files (~3 KB each) itself, one read_file per turn, then answers.
//   B: the parent hands the same 20 reads to one subagent, which returns a short summary.
// Measured on the CLI, on the requests as the local server received them: the parent's first request is
// the baseline, its last one carries everything the run added to its context.
import { runCli } from './cli.mjs';
import { delegatedGrowthPlan, inlineGrowthPlan, summaryOf } from './plans.mjs';
import { canary, GROWTH_FILES } from './util.mjs';

const size = (value) => Buffer.byteLength(JSON.stringify(value));
const tokens = (bytes) => Math.max(1, Math.ceil(bytes / 4)); // the local server's estimate (sse-replies.ts)

function parentRequests(run) {
  const parent = run.requests.filter((r) => r.route === 'parent');
  return { first: parent[0], last: parent.at(-1) };
}

export async function benchGrowth(report, server, scratch) {
  report.note(
    [
      'Bytes of the request JSON as the server received it, and its token estimate (bytes / 4). growth =',
      'last parent request − first parent request. One run each: the sizes do not vary between runs.',
    ].join('\n'),
  );
  const inline = parentRequests(await runCli(server, scratch, inlineGrowthPlan(), { bodies: true }));
  const delegated = parentRequests(await runCli(server, scratch, delegatedGrowthPlan(), { bodies: true }));
  const growthA = inline.last.bytes - inline.first.bytes;
  const growthB = delegated.last.bytes - delegated.first.bytes;

  const bytesRow = (label, bytes) => report.row(label, bytes, { unit: `B  (${tokens(bytes)} tokens)`, digits: 0 });
  bytesRow('first parent request (baseline), A and B', delegated.first.bytes);
  bytesRow('A inline: last parent request', inline.last.bytes);
  bytesRow('B delegated: last parent request', delegated.last.bytes);
  bytesRow('A inline: growth (20 calls + outputs)', growthA);
  bytesRow('B delegated: growth per task', growthB);
  report.row('  A growth / B growth', growthA / growthB, { unit: '×', digits: 1 });

  // What B added to the parent's messages, and whether it is just the task call and the summary.
  const added = delegated.last.body.messages.slice(delegated.first.body.messages.length);
  const blocks = added.flatMap((m) => (Array.isArray(m.content) ? m.content : [{ type: 'text', text: m.content }]));
  const use = blocks.find((b) => b.type === 'tool_use');
  const result = blocks.find((b) => b.type === 'tool_result');
  const summary = summaryOf('JOB-G');
  const lastJson = JSON.stringify(delegated.last.body);
  const leaked = GROWTH_FILES.filter((_, i) => lastJson.includes(canary(i + 1)));
  const onlyTaskAndSummary =
    // The result is the summary and the harness's footer: the change manifest (this child only read: "[changes] none")
    // and the line that addresses the child (send_message / read_subagent reach it by that id).
    blocks.length === 2 &&
    use?.name === 'task' &&
    result?.tool_use_id === use.id &&
    typeof result.content === 'string' &&
    result.content.startsWith(`${summary}\n\n[changes] none\n`) &&
    /^\[subagent [0-9a-f]{8}: send_message and read_subagent reach it\]$/.test(result.content.slice(`${summary}\n\n[changes] none\n`.length)) &&
    leaked.length === 0;
  report.note(
    `B added ${added.length} messages: tool_use "task" ${size(use)} B, tool_result ${size(result)} B (summary ${summary.length} chars),` +
      ` JSON glue ${growthB - size(use) - size(result)} B.`,
  );
  report.check('B growth = the task call + the summary (+ its harness footer) only', onlyTaskAndSummary, `${leaked.length} of 20 child outputs in the parent's last request`);
  if (!onlyTaskAndSummary) report.note(`the task result was: ${JSON.stringify(result?.content)}`);
  const inlineJson = JSON.stringify(inline.last.body);
  const seenInline = GROWTH_FILES.filter((_, i) => inlineJson.includes(canary(i + 1))).length;
  report.note(`(control: A's last request holds ${seenInline} of the 20 file outputs)`);
}
