// Section 10: subagent reports checked against their records (issue 16 §3). The corpus of child runs with
// truthful and invented reports (test/fixtures/report-corpus/: English, de/fr/es/zh/ja, paraphrases, code blocks
// and paths that only look like claims), scored by the check the task tool runs: the share of invented claims
// flagged (goal ≥ 90 %) and the share of everything else flagged (goal ≤ 5 %), and what one check costs; then the
// report guard: every injection shape of guard-cases.ts defanged, no truthful report or look-alike.
import { loadTs } from './util.mjs';

export async function benchReportChecks(report) {
  const { CORPUS, GOALS, scoreCorpus } = loadTs('test/fixtures/report-corpus/score.ts');
  const { checkReport } = loadTs('src/core/report/report-check.ts');
  const s = scoreCorpus();
  report.note(`${s.cases} child runs: ${s.invented} invented claims, ${s.truthful} truthful claims and look-alikes`);
  report.row('invented claims flagged', (s.inventedFlagged / s.invented) * 100, { unit: '%', min: GOALS.inventedFlagged * 100 });
  report.row('truthful claims and look-alikes flagged', (s.truthfulFlagged / s.truthful) * 100, { unit: '%', max: GOALS.truthfulFlagged * 100 });
  for (const m of s.missed) report.note(`missed: ${m}`);
  for (const w of s.wrong) report.note(`wrongly flagged: ${w}`);
  // The report guard (issue 24 §3) on the same corpus: injection shapes must all be defanged, no truthful text.
  const { GUARD_CASES } = loadTs('test/fixtures/report-corpus/guard-cases.ts');
  const { guardReport } = loadTs('src/core/report/report-guard.ts');
  const injected = GUARD_CASES.filter((c) => c.injected);
  const clean = [...GUARD_CASES.filter((c) => !c.injected).map((c) => c.text), ...CORPUS.map((c) => c.report)];
  const defanged = injected.filter((c) => guardReport(c.text).found.length > 0);
  const overFlagged = clean.filter((t) => guardReport(t).found.length > 0);
  report.note(`report guard: ${injected.length} injection shapes, ${clean.length} truthful reports and look-alikes`);
  report.row('injection shapes defanged', (defanged.length / injected.length) * 100, { unit: '%', min: 100 });
  report.row('truthful reports and look-alikes defanged', (overFlagged.length / clean.length) * 100, { unit: '%', max: 0 });
  for (const c of injected) if (!defanged.includes(c)) report.note(`not defanged: ${c.name}`);
  for (const t of overFlagged) report.note(`wrongly defanged: ${t.slice(0, 80)}`);
  // What a check adds to a child's end: the whole corpus, checked once per round.
  const rounds = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    for (const c of CORPUS) checkReport(c.report, c.record);
    rounds.push((performance.now() - t0) / CORPUS.length);
  }
  report.row('one report checked (mean over the corpus)', rounds, { unit: 'ms', digits: 3, max: 5 });
  const guardRounds = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    for (const c of CORPUS) guardReport(c.report);
    guardRounds.push((performance.now() - t0) / CORPUS.length);
  }
  report.row('one report guarded (mean over the corpus)', guardRounds, { unit: 'ms', digits: 3, max: 5 });
}
