// Mocha's spec reporter plus the plain closing line CI reads: "N passed, N failed", preceded by one
// "FAILED: <full title> — <first line of the error>" line per failure. CI shows only the tail of a run's output;
// scripts/test-all.mjs repeats these lines under its total, so a red run always names what failed.
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const failed = [];
    runner.on('fail', (test, err) => {
      const first = String((err && err.message) || err).split('\n').find((l) => l.trim()) ?? '';
      failed.push(`FAILED: ${test.fullTitle()} — ${first.trim().slice(0, 300)}`);
    });
    runner.once('end', () => {
      const { passes, failures, pending } = runner.stats;
      const list = failed.length ? `\n${failed.join('\n')}\n` : '';
      process.stdout.write(`${list}\n${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
    });
  }
}

module.exports = SummaryReporter;
