// Reads a Chromium trace (categories TRACE_CATEGORIES) of the panel's renderer into what each frame cost on
// the main thread. A frame is the task that runs requestAnimationFrame callbacks, lit's renders (microtasks),
// style, layout, pre-paint and paint; its duration is the frame's work, which must fit in the 16.7 ms between
// two vsyncs. Every other task (the host's message events, which apply a batch to the state; timers) is
// reported apart. Per task, the time is split by stage (exclusive: a forced layout inside script counts
// as layout). Headless Chromium paces rAF at 60 Hz, so rAF intervals are whole multiples of 16.7 ms and
// only say how many vsyncs a frame missed; this says by how much.

export const TRACE_CATEGORIES = ['devtools.timeline', 'toplevel'];

const STAGES = new Set([
  'FireAnimationFrame', 'FunctionCall', 'EventDispatch', 'TimerFire', 'RunMicrotasks', 'UpdateLayoutTree', 'Layout',
  'PrePaint', 'Paint', 'Layerize', 'UpdateLayer', 'IntersectionObserverController::computeIntersections', 'HitTest', 'ScrollLayer',
]);
const RENDERING = ['FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint'];

/** Top-level main-thread tasks of the page's renderer within [fromUs, toUs] (trace clock), with stage times. */
export function mainThreadTasks(trace, fromUs = -Infinity, toUs = Infinity) {
  const all = trace.traceEvents ?? trace;
  const names = all.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // The busiest renderer main thread is the page's (an about:blank renderer may be traced too).
  const count = (t) => all.filter((e) => e.pid === t.pid && e.tid === t.tid).length;
  const thread = names.sort((a, b) => count(b) - count(a))[0];
  if (!thread) return [];
  const events = all
    .filter((e) => e.pid === thread.pid && e.tid === thread.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tasks = [];
  const stack = [];
  let task = null;
  for (const e of events) {
    while (stack.length > 0 && e.ts >= stack[stack.length - 1].ts + stack[stack.length - 1].dur) stack.pop();
    const isTask = e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask';
    if (isTask && !stack.some((s) => s.name === 'ThreadControllerImpl::RunTask' || s.name === 'RunTask')) {
      task = { ts: e.ts, ms: e.dur / 1000, stages: {} };
      if (e.ts >= fromUs && e.ts <= toUs) tasks.push(task);
    } else if (task && STAGES.has(e.name)) {
      task.stages[e.name] = (task.stages[e.name] ?? 0) + e.dur / 1000;
      const outer = [...stack].reverse().find((s) => STAGES.has(s.name));
      if (outer) task.stages[outer.name] -= e.dur / 1000;
    }
    stack.push(e);
  }
  for (const t of tasks) t.frame = RENDERING.some((s) => t.stages[s] !== undefined);
  return tasks;
}

/** The trace clock (µs) at two page-side performance.now() marks made with console.timeStamp. */
export function markTimes(trace, label) {
  const all = trace.traceEvents ?? trace;
  return all.filter((e) => e.name === 'TimeStamp' && e.args?.data?.message === label).map((e) => e.ts);
}

/** Sums stage times over tasks. */
export function stageTotals(tasks) {
  const totals = {};
  for (const t of tasks) for (const [k, v] of Object.entries(t.stages)) totals[k] = (totals[k] ?? 0) + v;
  return totals;
}
