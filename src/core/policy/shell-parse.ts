/**
 * A small shell parser for the bash deny list: splits a command line into pipelines of simple
 * commands (words and redirects), following lists (; && || &), subshells, $( ), backticks, process
 * substitution and heredocs, so the checks can look at every command a line would run.
 */
export interface Redirect {
  out: boolean;
  target: string;
  /** `<<< word`: the word itself is the input. */
  herestring?: boolean;
}

export interface SimpleCommand {
  /** Words after quote removal; a substitution leaves a `$(…)` placeholder. */
  words: string[];
  redirects: Redirect[];
  /** Scripts inside $( ), backticks, <( ) and >( ) of this command. */
  nested: Script[];
  /** Per word, the scripts of its `$(…)` placeholders in order (so a checker can work out what they print). */
  substitutions?: Script[][];
}

/** The placeholder a `$( )` or backtick substitution leaves in its word. */
export const SUBSTITUTION = '$(…)';

export type Pipeline = SimpleCommand[];
export type Script = Pipeline[];

const MAX_DEPTH = 16;

export class TooDeep extends Error {}

/** Index just past the `)` closing a group opened before `start`, skipping quoted text. */
function findClose(src: string, start: number): number {
  let depth = 1;
  for (let i = start; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      i = end === -1 ? src.length : end;
    } else if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return src.length;
}

/** Index just past the backtick closing one opened before `start`. */
function findBacktick(src: string, start: number): number {
  for (let i = start; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === '`') return i + 1;
  }
  return src.length;
}

export function parseScript(src: string, depth: number): Script {
  if (depth > MAX_DEPTH) throw new TooDeep();
  const script: Script = [];
  let pipeline: Pipeline = [];
  let cmd: SimpleCommand = { words: [], redirects: [], nested: [] };
  let word = '';
  let inWord = false;
  let redirect: 'out' | 'in' | 'herestring' | 'heredoc' | 'heredoc-strip' | undefined;
  const heredocs: { delim: string; strip: boolean }[] = [];
  let wordSubs: Script[] = [];

  const endWord = (): void => {
    if (!inWord) return;
    if (redirect === 'heredoc' || redirect === 'heredoc-strip') heredocs.push({ delim: word, strip: redirect === 'heredoc-strip' });
    else if (redirect) cmd.redirects.push({ out: redirect === 'out', target: word, ...(redirect === 'herestring' ? { herestring: true } : {}) });
    else {
      (cmd.substitutions ??= [])[cmd.words.length] = wordSubs;
      cmd.words.push(word);
    }
    redirect = undefined;
    word = '';
    wordSubs = [];
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    if (cmd.words.length || cmd.redirects.length || cmd.nested.length) pipeline.push(cmd);
    cmd = { words: [], redirects: [], nested: [] };
  };
  const endPipeline = (): void => {
    endCommand();
    if (pipeline.length) script.push(pipeline);
    pipeline = [];
  };
  /** A nested script; `$( )` and backticks also belong to the word being built (process substitution does not). */
  const sub = (inner: string, inWordText = true): void => {
    const script = parseScript(inner, depth + 1);
    cmd.nested.push(script);
    if (inWordText) wordSubs.push(script);
  };

  let i = 0;
  while (i < src.length) {
    const c = src[i] ?? '';
    const next = src[i + 1] ?? '';
    if (c === '\\') {
      if (next !== '\n') {
        word += next;
        inWord = true;
      }
      i += 2;
    } else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      const stop = end === -1 ? src.length : end;
      word += src.slice(i + 1, stop);
      inWord = true;
      i = stop + 1;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < src.length && src[i] !== '"'; ) {
        const d = src[i] ?? '';
        if (d === '\\') {
          const e = src[i + 1] ?? '';
          word += '$`"\\\n'.includes(e) ? (e === '\n' ? '' : e) : d + e;
          i += 2;
        } else if (d === '$' && src[i + 1] === '(') {
          const end = findClose(src, i + 2);
          sub(src.slice(i + 2, end - 1));
          word += SUBSTITUTION;
          i = end;
        } else if (d === '`') {
          const end = findBacktick(src, i + 1);
          sub(src.slice(i + 1, end - 1));
          word += SUBSTITUTION;
          i = end;
        } else {
          word += d;
          i++;
        }
      }
      i++;
    } else if (c === '`') {
      const end = findBacktick(src, i + 1);
      sub(src.slice(i + 1, end - 1));
      word += SUBSTITUTION;
      inWord = true;
      i = end;
    } else if (c === '$' && next === '(') {
      const end = findClose(src, i + 2);
      sub(src.slice(i + 2, end - 1));
      word += SUBSTITUTION;
      inWord = true;
      i = end;
    } else if ((c === '<' || c === '>') && next === '(' && !inWord) {
      const end = findClose(src, i + 2);
      sub(src.slice(i + 2, end - 1), false);
      word += `${c}(…)`;
      inWord = true;
      i = end;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
    } else if (c === '\n') {
      endPipeline();
      i++;
      // Heredoc bodies are data, not commands: skip to each delimiter line.
      for (const h of heredocs.splice(0)) {
        while (i < src.length) {
          const eol = src.indexOf('\n', i);
          const stop = eol === -1 ? src.length : eol;
          const line = src.slice(i, stop);
          i = stop + 1;
          if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim) break;
        }
      }
    } else if (c === '#' && !inWord) {
      const eol = src.indexOf('\n', i);
      i = eol === -1 ? src.length : eol;
    } else if (c === ';' || c === '(' || c === ')') {
      endPipeline();
      i++;
    } else if (c === '&') {
      if (next === '>') {
        endWord();
        redirect = 'out';
        i += src[i + 2] === '>' ? 3 : 2;
      } else {
        endPipeline();
        i += next === '&' ? 2 : 1;
      }
    } else if (c === '|') {
      if (next === '|') endPipeline();
      else endCommand();
      i += next === '|' || next === '&' ? 2 : 1;
    } else if (c === '<' || c === '>') {
      // `2>`: the digits were an fd number, not a word.
      if (inWord && /^\d+$/.test(word)) {
        word = '';
        inWord = false;
      } else endWord();
      let op = c;
      i++;
      while (i < src.length && '<>|&-'.includes(src[i] ?? '') && op.length < 3) op += src[i++];
      if (/[<>]&-?$/.test(op) && /[\d-]/.test(src[i] ?? '')) {
        // fd duplication (2>&1, <&-): no file involved.
        while (/[\d-]/.test(src[i] ?? '')) i++;
      } else if (op.startsWith('<<<')) redirect = 'herestring';
      else if (op.startsWith('<<')) redirect = op === '<<-' ? 'heredoc-strip' : 'heredoc';
      else redirect = op.startsWith('<') && !op.includes('>') ? 'in' : 'out';
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  endPipeline();
  return script;
}
