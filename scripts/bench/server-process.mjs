// The benchmark's model: the project's local Messages-API server (test/fixtures/messages-api-server.ts,
// 127.0.0.1, random port), run in its own process so its work never shares an event loop with what is
// measured. Driven over IPC by server-client.mjs:
//
//   { id, cmd: 'plan', arg: plan }  answer with this plan (plans.mjs) from now on; clears the records
//                                   and the prompt cache
//   { id, cmd: 'stats', arg: { bodies } }  what arrived since the plan: per request its route, arrival
//                                   time, JSON size, token estimate, cache read/write (and body when asked); the
//                                   server's CPU time and the model latency it actually slept
//   { id, cmd: 'close' }            stop the server and exit (it also exits when the IPC channel closes)
//
// Latency is slept inside the responder and timed here, so the bench subtracts what the server really
// waited (timers overshoot by ~1 ms) rather than the nominal figure.
import { loadTs } from './util.mjs';

const { startMessagesApiServer, reply, firstUserText } = loadTs('test/fixtures/messages-api-server.ts');
const { estimateTokens } = loadTs('test/fixtures/sse-replies.ts');

const api = await startMessagesApiServer();
let queues = new Map();
let slept = [];
let cpuAt = process.cpuUsage();

const toReply = (step) => (step.tools ? reply.toolUse(step.tools, step.text ? { text: step.text } : {}) : reply.text(step.text ?? ''));

api.setResponder(async (req) => {
  const first = firstUserText(req);
  // A plan's `summary` steps answer the harness's compaction requests (their system prompt: "You summarize …").
  const system = JSON.stringify(req.body.system ?? '');
  const route = queues.has('summary') && system.includes('You summarize') ? 'summary' : ([...queues.keys()].find((tag) => tag !== 'parent' && tag !== 'summary' && first.includes(tag)) ?? 'parent');
  req.route = route;
  const step = queues.get(route)?.shift();
  if (!step) throw new Error(`no reply left for route "${route}" (request #${req.index})`);
  if (step.delayMs > 0) {
    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    slept.push(performance.now() - t0);
  }
  return toReply(step);
});

function summary(req, withBody) {
  const json = JSON.stringify(req.body);
  const bytes = Buffer.byteLength(json);
  return {
    index: req.index,
    route: req.route,
    receivedAt: req.receivedAt,
    messages: req.body.messages?.length ?? 0,
    bytes,
    tokens: estimateTokens(bytes),
    // What the prompt cache read and wrote (the API's caching rules: test/fixtures/prompt-cache.ts).
    ...(req.cache ? { cache: req.cache } : {}),
    ...(withBody ? { body: req.body, headers: req.headers } : {}),
  };
}

const commands = {
  plan(plan) {
    queues = new Map([['parent', [...plan.parent]], ...Object.entries(plan.children).map(([tag, steps]) => [tag, [...steps]]), ...(plan.summary ? [['summary', [...plan.summary]]] : [])]);
    api.requests.length = 0;
    api.failures.length = 0;
    // Every run starts with an empty prompt cache: no run reads what an earlier one wrote.
    api.cache.clear();
    slept = [];
    cpuAt = process.cpuUsage();
    return api.baseURL;
  },
  stats({ bodies = false } = {}) {
    const cpu = process.cpuUsage(cpuAt);
    const left = [...queues].filter(([, q]) => q.length > 0).map(([tag, q]) => `${tag}: ${q.length} repl${q.length === 1 ? 'y' : 'ies'} left`);
    return {
      requests: api.messageRequests().map((r) => summary(r, bodies)),
      problems: [...api.failures, ...left],
      cpuMs: (cpu.user + cpu.system) / 1000,
      sleptMs: slept.reduce((a, b) => a + b, 0),
    };
  },
  async close() {
    await api.close();
    setImmediate(() => process.exit(0));
  },
};

process.on('message', async ({ id, cmd, arg }) => {
  try {
    process.send({ id, result: await commands[cmd](arg) });
  } catch (err) {
    process.send({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
process.on('disconnect', () => void api.close().then(() => process.exit(0)));
process.send({ ready: api.baseURL });
