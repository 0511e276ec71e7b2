/**
 * The claims a subagent's report makes about its own work, read from its prose (report-check.ts compares them
 * with the record):
 *
 *   report ─▶ drop code blocks, quotes, HTML comments ─▶ clauses (sentences, list items, `;`)
 *          ─▶ skip a clause that is hedged, advice or a question ("you should run npm test", "if the tests pass")
 *          ─▶ per clause: file claims (a file verb next to a path), command claims (tests/build/lint/typecheck
 *             passed, failed or ran; a `command` in backticks), a done claim ("fixed", "implemented", a
 *             first-person change with no path) — each dropped when its words stand in a negated part of the
 *             clause ("I did not change X", but "fixed X so it no longer throws, and all tests pass" claims both)
 *
 * Precise rules over coverage: a missed invention costs less than a truthful report marked as one. English,
 * German, French, Spanish, Chinese and Japanese phrasings are recognised; anything else makes no claim.
 */

import { spec, twinnedPatterns, type PatternSpec } from './ascii-twin';

type FileVerb = 'read' | 'created' | 'changed' | 'deleted';
type CommandOutcome = 'ran' | 'passed' | 'failed';
export type CheckSubject = 'tests' | 'build' | 'lint' | 'typecheck';

export type ReportClaim =
  | { kind: 'file'; verb: FileVerb; path: string; text: string }
  | { kind: 'command'; outcome: CommandOutcome; command?: string; subject?: CheckSubject; text: string }
  | { kind: 'done'; text: string };

/** A word boundary that knows letters beyond ASCII (é, ü, ñ). */
const B = '(?<![\\p{L}\\p{N}_])';
const E = '(?![\\p{L}\\p{N}_])';
const words = (list: string): string => `${B}(?:${list})${E}`;
const re = (source: string): PatternSpec => spec(source, 'giu');

/**
 * A negation reaches the part of the clause it stands in, not the whole clause: "fixed X so it no longer throws, and
 * all tests pass" claims both the fix and the pass; "I did not update `a.ts`, `b.ts` or `c.ts`" claims nothing (each
 * path's verb is in the negated part). Parts end at a comma, a colon, a dash, "and", "so", "then", "which".
 */
const NEGATION = spec(
  [
    words("not|never|cannot|can't|nothing|none|neither|nor|without|didn't|don't|doesn't|haven't|hasn't|wasn't|weren't|isn't|aren't|won't|couldn't|unable|failed to|no(?!\\s+(?:lint |type |test |new )?(?:errors?|failures?|warnings?|issues?|problems?|regressions?))"),
    words('nicht|kein|keine|keinen|keiner|nie|niemals'),
    words("ne|n'|pas|jamais|aucun|aucune|rien"),
    words('nunca|ningún|ninguna|nada|sin'),
    '没|沒|未|不是|不要|无需|無',
    'ません|ていない|なかった|しない|できない',
  ].join('|'),
  'iu',
);
const PART_BREAK = spec(String.raw`,\s+|:\s+|\s+[-–—]\s+|\s+(?:and|so|then|which|und|et|y)\s+|[，、：]`, 'giu');

/** A clause with any of these claims nothing: hedges, advice, conditions, the future, reported asks. */
const NOT_A_CLAIM = spec(
  [
    words('should|could|would|might|may|must|will|shall|please|recommend(?:ed|s)?|suggest(?:ed|s)?|consider|need(?:s|ed)? to|try|want(?:s|ed)? to|going to|plan(?:s|ned)? to|if|unless|whether|once|until|already (?:been )?(?:\\p{L}+ed|done|in place)|asked (?:me|us|for|to)|you asked|requested (?:me|us|that|to)|wants? (?:me|us) to|expected|supposed|todo|next step|to verify|make sure|ensure|to (?:re-?)?run|says|said|tells|told|documents|describes|mentions|refused|rejected|blocked|denied'),
    // German, French, Spanish
    words('sollte|sollten|solltest|könnte|könnten|würde|würden|müsste|bitte|empfehle|werde|wird|wenn|falls|bereits'),
    words('devriez|devrait|pourriez|pourrait|faudrait|veuillez|pouvez|vais|va|si|recommande|suggère|déjà'),
    words('debería|deberías|deberían|podría|podrías|puedes|favor|recomiendo|sugiero|voy|vas|ya'),
    // Chinese, Japanese (no word boundaries)
    '建议|應該|应该|请|可以|如果|需要|将会|打算|是否',
    'ください|べき|おすすめ|推奨|してみて|予定|もし|場合|でしょう|かもしれ',
  ].join('|'),
  'iu',
);

/** "without errors", "sin errores": a pass said with a negation word. */
const WITHOUT_ERRORS = spec(String.raw`(?<![\p{L}])(?:without (?:any )?(?:errors?|failures?|warnings?|issues?)|sin (?:errores|fallos)|sans (?:erreurs?|échecs?)|ohne (?:Fehler|Warnungen))(?![\p{L}])`, 'giu');

/** An instruction to the reader, not a report: "Run `npm test`", "Update `a.ts` before merging". */
const IMPERATIVE = spec(String.raw`^(?:[-*•]\s+|\d+[.)]\s+)?(?:run|rerun|try|add|update|check|create|delete|remove|change|edit|open|see|use|look|consider|fix|implement|install|execute|verify|führe|führen|lance[zr]?|exécute[zr]?|ejecuta|ejecute|corre)(?![\p{L}])`, 'iu');

const READ = words(
  'read|re-read|reread|looked (?:at|through|into)|reviewed|inspected|examined|opened|went through|scanned|studied|checked|viewed|' +
    'gelesen|angesehen|angeschaut|durchgesehen|geprüft|untersucht|lu|relu|examiné|consulté|parcouru|inspecté|' +
    'leí|leído|revisé|revisado|examiné|consulté|inspeccioné',
) + '|阅读了?|查看了?|读了|看了|检查了|閲覧|読みました|読んだ|読み込みました|確認しました|調べました|参照しました';
const CREATED = words('created|generated|scaffolded|erstellt|angelegt|créé|créée|creé|creado|creada') + '|创建了?|新建了?|作成し|新規作成';
const CHANGED = words(
  'updated|modified|changed|edited|fixed|patched|refactored|rewrote|rewritten|adjusted|tweaked|amended|replaced|bumped|extended|wrote|written|added|implemented|renamed|corrected|' +
    'raised|lowered|increased|decreased|switched|converted|migrated|moved|wired|inlined|extracted|simplified|cleaned up|reformatted|formatted|documented|applied|' +
    'geändert|aktualisiert|angepasst|bearbeitet|modifiziert|korrigiert|behoben|überarbeitet|ergänzt|umgeschrieben|hinzugefügt|geschrieben|' +
    'modifié|modifiée|mis à jour|changé|édité|corrigé|ajusté|réécrit|ajouté|écrit|appliqué|appliquée|' +
    'modifiqué|modificado|actualicé|actualizado|cambié|cambiado|edité|editado|corregí|corregido|ajusté|reescribí|añadí|agregué|escribí',
) + '|修改了?|更新了?|编辑了?|改了|修复了?|调整了?|重写了?|添加了?|新增了?|修正し|変更し|更新し|編集し|書き換え|追加し';
const DELETED = words('deleted|removed|erased|gelöscht|entfernt|supprimé|supprimée|effacé|eliminé|eliminado|borré|borrado|quité') + '|删除了?|移除了?|削除し';
/** "removed the import from a.ts", "added a test to b.ts": the file was changed, not deleted or created. */
const FROM_OR_TO = spec(`${words('from|to|in|into|aus|von|de|du|dans|à|en|a')}\\s*(?:the\\s+file\\s+)?$`, 'iu');

const FILE_VERBS: [FileVerb, PatternSpec][] = [
  ['read', re(READ)],
  ['created', re(CREATED)],
  ['deleted', re(DELETED)],
  ['changed', re(CHANGED)],
];

/** Programs a backticked command starts with (anything else in backticks is a path or a quote). */
const COMMAND_START = /^(?:[A-Z_]+=\S*\s+)*(?:npm|npx|pnpm|yarn|bun|deno|node|tsx|python3?|pytest|pip|uv|go|cargo|make|cmake|ctest|tsc|eslint|prettier|jest|mocha|vitest|git|bash|sh|rspec|bundle|rake|gradle|\.\/gradlew|mvn|dotnet|ruff|mypy|pyright|flake8|black|php|phpunit|composer|swift|mix|curl|wget|docker|kubectl|terraform|helm|\.\/[\w.-]+)(?:\s|$)/;

const RAN = words('ran|run|running|executed|invoked|re-ran|reran|verified|confirmed|ausgeführt|gestartet|überprüft|exécuté|lancé|vérifié|ejecuté|ejecutado|corrí|verifiqué|comprobé') + '|运行了?|执行了?|跑了|验证了|実行し';
const PASSED = words(
  'pass|passes|passed|passing|succeed|succeeds|succeeded|green|clean|works|compiles|ok|bestehen|bestanden|erfolgreich|grün|durch|passent|réussissent|réussi|verts|pasan|pasaron|exitosas|correctamente',
) + '|通过|成功|通りました|パスしました|成功しました|通過しました|グリーン';
const FAILED = words('fail|fails|failed|failing|failures?|errors out|fehlgeschlagen|schlagen fehl|échouent|échoué|échoue|fallan|fallaron|falla') + '|失败|失敗しました|失敗した|落ちました';
const SUBJECTS: [CheckSubject, PatternSpec][] = [
  ['tests', re(words('tests?|test suite|specs?|unit tests|Tests|Testsuite|pruebas|tests unitaires|\\d+ (?:passing|failing|passed|failed)') + '|测试|テスト')],
  ['typecheck', re(words('typecheck(?:s|ing)?|type-?checks?|type check|types|tsc|mypy|pyright'))],
  ['lint', re(words('lint(?:s|ing|er)?|eslint|ruff|flake8|clippy'))],
  ['build', re(words('build|builds|compiles|compilation|Build|compilación|compilation') + '|构建|编译|ビルド')],
];

const DONE = re(
  words(
    'fixed|implemented|resolved|applied the (?:fix|patch|changes?)|made the (?:requested )?changes?|behoben|implementiert|umgesetzt|repariert|corrigé|implémenté|réparé|résolu|arreglé|arreglado|implementé|implementado|solucioné|solucionado|resuelto',
  ) + '|已修复|修复了|已实现|实现了|已解决|解决了|修正しました|実装しました|解決しました|直しました',
);
/*
 * A bare "Done." / "Erledigt." / "完了しました" is not one: a child that only had to look says it too. A change
 * claimed without a path is "fixed", "implemented", "resolved", "made the changes" or a first-person change verb.
 */
/** A first-person change with no path ("I updated the config", "J'ai changé la config"): a done claim too. */
const FIRST_PERSON = spec(String.raw`^(?:[-*•]\s+)?(?:i(?: have|'ve)?\s|we(?: have|'ve)?\s|ich habe|wir haben|j'ai|nous avons|he\s|hemos|我|私は|(?:updated|modified|changed|edited|refactored|rewrote|added|implemented|fixed)\s)`, 'iu');

const FILE_EXT = 'ts|tsx|js|jsx|mjs|cjs|mts|cts|json|jsonc|md|mdx|py|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|rb|php|yml|yaml|toml|txt|css|scss|html|sh|lock|cfg|ini|xml|sql|vue|svelte|env|gradle|proto|graphql|csv';
const BARE_PATH = new RegExp(`(?<![\\w/.@:-])((?:\\.{0,2}/)?(?:[\\w@.-]+/)*[\\w.-]+\\.(?:${FILE_EXT}))(?![\\w/-])`, 'g');
/** Names of tools and libraries that look like files. */
const NOT_PATHS = /^(?:node|next|vue|react|express|nuxt|deno|three|chart|d3|socket\.io|ember|backbone|angular)\.js$/i;

const MAX_CLAIM_CHARS = 160;

/** The claims of a report, in order. */
export function extractClaims(report: string): ReportClaim[] {
  const claims: ReportClaim[] = [];
  for (const clause of clausesOf(proseOf(report))) claims.push(...claimsOf(clause));
  return claims;
}

/** The report without what it quotes: fenced and indented code, `>` quotes, HTML comments. */
function proseOf(report: string): string {
  return report
    .replace(/<!--[\s\S]*?-->/g, '\n')
    .replace(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm, '\n')
    .replace(/^(?: {4}|\t).*$/gm, '')
    .replace(/^ {0,3}>.*$/gm, '');
}

function clausesOf(prose: string): string[] {
  const out: string[] = [];
  for (const line of prose.split('\n')) {
    // Sentence ends, keeping `a.ts` and 1.5 whole; inline code is kept whole too.
    // …and at the conjunctions that start another statement ("since nothing imports it").
    const parts = line.split(/(?<=[.!?])\s+(?=\S)|(?<=[。！？；])|;\s+|\s+(?=(?:since|because|but|although|though|while|whereas|weil|aber|obwohl|parce que|mais|car|porque|pero|aunque|因为|但是|但|ので|けど|が、)\s)/u);
    for (const p of parts) if (p.trim()) out.push(p.trim());
  }
  return out;
}

interface Span {
  start: number;
  end: number;
  value: string;
}

function claimsOf(clause: string): ReportClaim[] {
  const P = patternsFor(clause);
  // A parenthesis says something beside the claim ("Deleted `x.ts` (nothing imported it)"); blanked, not cut, so
  // positions stay the clause's.
  const blank = (text: string): string => text.replace(/\([^()]*\)/g, (m) => ' '.repeat(m.length)).replace(P.WITHOUT_ERRORS, (m) => ' '.repeat(m.length));
  if (/[?？]\s*$/.test(clause) || P.NOT_A_CLAIM.test(blank(clause)) || P.IMPERATIVE.test(clause)) return [];
  const text = clause.length > MAX_CLAIM_CHARS ? `${clause.slice(0, MAX_CLAIM_CHARS - 1)}…` : clause;
  const { paths, commands, plain } = spansOf(clause);
  // Negations are read outside code spans (`--no-index` negates nothing).
  const negated = negatedParts(P, () => blank(plain));
  const claims: ReportClaim[] = [];

  // Files: each path takes the file verb nearest to it (before or after: "updated `a.ts`", "`a.ts` geändert").
  const verbs = P.FILE_VERBS.flatMap(([verb, pattern]) => [...plain.matchAll(pattern)].map((m) => ({ verb, start: m.index, end: m.index + m[0].length })));
  for (const path of paths) {
    let best: { verb: FileVerb; start: number; end: number } | undefined;
    let bestGap = Infinity;
    for (const v of verbs) {
      const gap = v.end <= path.start ? path.start - v.end : v.start >= path.end ? v.start - path.end : 0;
      if (gap < bestGap) [best, bestGap] = [v, gap];
    }
    if (!best || bestGap > 60 || negated(best.start) || negated(path.start)) continue;
    let verb = best.verb;
    // "removed X from `a.ts`", "added X to `a.ts`": a change to the file.
    const between = plain.slice(Math.min(best.end, path.start), Math.max(best.start, path.end));
    if ((verb === 'deleted' || verb === 'created') && best.end <= path.start && P.FROM_OR_TO.test(between.slice(-20))) verb = 'changed';
    claims.push({ kind: 'file', verb, path: path.value, text });
  }

  // Commands and checks: an outcome word, with a backticked command anywhere in the clause, or next to a subject
  // ("all tests pass", "der Build ist erfolgreich"; "the test for X was failing because …" is about code, not a run).
  const outcomes = (['failed', 'passed', 'ran'] as const)
    .flatMap((o) => [...plain.matchAll(P.OUTCOMES[o])].map((m) => ({ o, start: m.index, end: m.index + m[0].length })))
    // "0 failing", "no failures": a pass.
    .filter((m) => m.o !== 'failed' || !P.ZERO_BEFORE.test(plain.slice(Math.max(0, m.start - 8), m.start)))
    .filter((m) => !negated(m.start));
  if (outcomes.length) {
    if (commands.length) {
      const o = (['failed', 'passed', 'ran'] as const).find((x) => outcomes.some((m) => m.o === x)) as CommandOutcome;
      const subject = P.SUBJECTS.find(([, pattern]) => matches(pattern, plain))?.[0];
      for (const c of commands) if (!negated(c.start)) claims.push({ kind: 'command', outcome: o, command: c.value, ...(subject ? { subject } : {}), text });
    } else {
      // A pass that admits failures ("mostly pass (2 flaky failures)") claims no clean run.
      const admitsFailure = outcomes.some((m) => m.o === 'failed');
      for (const near of subjectsNearOutcomes(P, plain, outcomes, negated)) {
        const outcome = near.outcome === 'passed' && admitsFailure ? 'failed' : near.outcome;
        if (outcome !== 'ran' || !paths.length) claims.push({ kind: 'command', outcome, subject: near.subject, text });
      }
    }
  }

  // Done: "fixed", "implemented" (or a first-person change) with no file named, outside a negated part.
  const said = (pattern: RegExp): boolean => [...plain.matchAll(pattern)].some((m) => !negated(m.index));
  if (!paths.length && !claims.some((c) => c.kind === 'file') && (said(P.DONE) || (P.FIRST_PERSON.test(clause) && said(P.CHANGED)))) claims.push({ kind: 'done', text });
  return claims;
}

/** Whether a position of the clause is in a part (PART_BREAK) that holds a negation (the parts read when first asked). */
function negatedParts(P: Patterns, textOf: () => string): (index: number) => boolean {
  let parts: { start: number; negated: boolean }[] | undefined;
  const read = (): { start: number; negated: boolean }[] => {
    const text = textOf();
    const out: { start: number; negated: boolean }[] = [];
    let start = 0;
    for (const m of text.matchAll(P.PART_BREAK)) {
      out.push({ start, negated: P.NEGATION.test(text.slice(start, m.index)) });
      start = m.index + m[0].length;
    }
    out.push({ start, negated: P.NEGATION.test(text.slice(start)) });
    return out;
  };
  return (index) => (parts ??= read()).findLast((p) => p.start <= index)?.negated ?? false;
}

const OUTCOMES: Record<CommandOutcome, PatternSpec> = { failed: re(FAILED), passed: re(PASSED), ran: re(RAN) };
const NEAR = 24;
const ZERO_BEFORE = spec(String.raw`(?:^|[^\w.])(?:0|no|zero|keine?|aucun|ningún|ninguna)\s*(?:tests?\s+)?$`, 'iu');

/** Every pattern that reads a clause's words, compiled as written (any text) or as ASCII twins (ascii-twin.ts). */
function compiled(c: (p: PatternSpec) => RegExp) {
  const each = <K extends string>(list: [K, PatternSpec][]): [K, RegExp][] => list.map(([k, p]) => [k, c(p)]);
  return {
    NEGATION: c(NEGATION),
    PART_BREAK: c(PART_BREAK),
    NOT_A_CLAIM: c(NOT_A_CLAIM),
    WITHOUT_ERRORS: c(WITHOUT_ERRORS),
    IMPERATIVE: c(IMPERATIVE),
    FROM_OR_TO: c(FROM_OR_TO),
    FILE_VERBS: each(FILE_VERBS),
    OUTCOMES: { failed: c(OUTCOMES.failed), passed: c(OUTCOMES.passed), ran: c(OUTCOMES.ran) },
    SUBJECTS: each(SUBJECTS),
    DONE: c(DONE),
    FIRST_PERSON: c(FIRST_PERSON),
    ZERO_BEFORE: c(ZERO_BEFORE),
    CHANGED: c(re(CHANGED)),
  };
}
type Patterns = ReturnType<typeof compiled>;

/**
 * The patterns for this clause: ASCII twins for an ASCII clause (most are), the patterns as written for any other;
 * each set compiled on first use, not at load (ascii-twin.ts: what a `\p{L}` under `iu` costs V8).
 */
export const patternsFor: (clause: string) => Patterns = twinnedPatterns(compiled);

/** Each subject with the outcome word nearest to it (at most NEAR characters away; a pass or a failure before a "ran"). */
function subjectsNearOutcomes(P: Patterns, plain: string, outcomes: { o: CommandOutcome; start: number; end: number }[], negated: (index: number) => boolean): { subject: CheckSubject; outcome: CommandOutcome }[] {
  const found: { subject: CheckSubject; outcome: CommandOutcome }[] = [];
  for (const [subject, pattern] of P.SUBJECTS) {
    let best: { outcome: CommandOutcome; gap: number } | undefined;
    for (const m of plain.matchAll(pattern)) {
      if (negated(m.index)) continue;
      const start = m.index;
      const end = start + m[0].length;
      for (const o of outcomes) {
        const gap = o.end <= start ? start - o.end : o.start >= end ? o.start - end : 0;
        if (gap > NEAR) continue;
        // A result beats "ran" within reach: "Ran npm test: all passing" claims the pass, not only the run.
        const rank = Number(o.o !== 'ran') - Number(best !== undefined && best.outcome !== 'ran');
        if (!best || rank > 0 || (rank === 0 && gap < best.gap)) best = { outcome: o.o, gap };
      }
    }
    if (best) found.push({ subject, outcome: best.outcome });
  }
  return found;
}

/** Paths and commands in the clause; `plain` is the clause with every backticked span blanked out. */
function spansOf(clause: string): { paths: Span[]; commands: Span[]; plain: string } {
  const paths: Span[] = [];
  const commands: Span[] = [];
  let plain = clause;
  for (const m of clause.matchAll(/`([^`\n]+)`/g)) {
    const inner = (m[1] ?? '').trim();
    const span = { start: m.index, end: m.index + m[0].length };
    plain = plain.slice(0, span.start) + ' '.repeat(m[0].length) + plain.slice(span.end);
    if (COMMAND_START.test(inner)) commands.push({ ...span, value: inner });
    else {
      const path = asPath(inner);
      if (path) paths.push({ ...span, value: path });
    }
  }
  for (const m of plain.matchAll(BARE_PATH)) {
    const path = asPath(m[1] ?? '');
    if (path && !/^https?:/.test(plain.slice(Math.max(0, m.index - 8), m.index))) paths.push({ start: m.index, end: m.index + m[0].length, value: path });
  }
  return { paths, commands, plain };
}

/** A path as written (`src/a.ts:42`, `./b.js#L3` → `src/a.ts`, `b.js`), or undefined when it is none. */
function asPath(token: string): string | undefined {
  const t = token.replace(/(?::\d+(?::\d+)?|#L\d+(?:-L?\d+)?)$/, '').replace(/^\.\//, '');
  if (!/^[\w@~./-]+$/.test(t) || /^https?:/.test(t) || NOT_PATHS.test(t) || /^\.+$/.test(t)) return undefined;
  if (!t.includes('/') && !new RegExp(`\\.(?:${FILE_EXT})$`, 'i').test(t)) return undefined;
  if (/^\d+(?:\.\d+)+$/.test(t) || /\/$/.test(t)) return undefined;
  return t;
}

function matches(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  const hit = pattern.test(text);
  pattern.lastIndex = 0;
  return hit;
}
