/**
 * A text as a matcher should see it, with a way back to the original: the report guard (report-guard.ts) looks
 * for `System:`, `<system-reminder>` or `[changes]` in the shadow, then edits the original at the same place.
 *
 *   original  "＜ѕystem\u200b-reminder＞"   (full-width brackets, a Cyrillic ѕ, a zero-width space)
 *   shadow    "<system-reminder>"           each shadow character knows the original range it came from
 *
 * Per code point: an HTML character reference reads as its character (`&lt;` → `<`, `&#83;` → `S`); Unicode tag
 * characters (U+E0020–E007E) read as the ASCII they encode; zero-width, bidi and other format characters and
 * combining marks are dropped; NFKC folds full-width and other compatibility forms (`Ｓ` → `S`, `：` → `:`,
 * `𝐒` → `S`); Cyrillic, Greek and Armenian letters and Latin small capitals that look like Latin ones become those
 * (`а` → `a`, `Ο` → `O`, `ʏ` → `y`). Only matching reads the shadow: the
 * text the parent reads keeps its own characters wherever nothing was found.
 */

/** Look-alikes of Latin letters (the common Cyrillic, Greek and Armenian ones; NFKC leaves them alone). */
const LOOK_ALIKES: Readonly<Record<string, string>> = Object.fromEntries(
  [
    // Cyrillic
    'аa еe оo рp сc уy хx ѕs іi јj һh ԁd ԛq ԝw ӏl кk ɡg ԍg',
    'АA ВB ЕE КK МM НH ОO РP СC ТT ХX УY ЅS ІI ЈJ ҮY ҺH ԚQ ԜW ӀI ԌG',
    // Greek
    'ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX οo νv ιi κk ρp υu αa ϲc ϳj',
    // Armenian, Latin oddities
    'օo սu ցg ıi ɑa',
    // Latin small capitals (phonetic letters NFKC keeps): `Sʏstem`, `ꜱʏꜱᴛᴇᴍ`
    'ᴀa ʙb ᴄc ᴅd ᴇe ꜰf ɢg ʜh ɪi ᴊj ᴋk ʟl ᴍm ɴn ᴏo ᴘp ǫq ʀr ꜱs ᴛt ᴜu ᴠv ᴡw ʏy ᴢz',
  ]
    .join(' ')
    .split(' ')
    .map((pair) => [...pair] as [string, string]),
);

/**
 * HTML character references, which a model reads through (`&lt;system-reminder&gt;`, `&#83;ystem:`): numeric ones
 * of any character, and the named ones of the characters markup is made of.
 */
const CHAR_REF = /&(?:#(?<dec>\d{1,7});|#[xX](?<hex>[\da-fA-F]{1,6});|(?<legacy>lt|gt|amp|quot)(?![A-Za-z\d]);?|(?<named>vert|verbar|VerticalLine|colon|lsqb|rsqb|lbrack|rbrack|sol|bsol|excl|num|lowbar|period|apos);)/y;
const NAMED: Readonly<Record<string, string>> = {
  lt: '<', gt: '>', amp: '&', quot: '"', vert: '|', verbar: '|', VerticalLine: '|', colon: ':', lsqb: '[', rsqb: ']', lbrack: '[',
  rbrack: ']', sol: '/', bsol: '\\', excl: '!', num: '#', lowbar: '_', period: '.', apos: "'",
};

/** The character a reference at `at` stands for (`&gt` without its `;` too, as HTML reads it), and its length. */
function charRef(original: string, at: number): { cp: number; length: number } | undefined {
  CHAR_REF.lastIndex = at;
  const m = CHAR_REF.exec(original);
  const g = m?.groups;
  if (!m || !g) return undefined;
  const name = g.legacy ?? g.named;
  const cp = name !== undefined ? (NAMED[name] as string).codePointAt(0) : g.dec !== undefined ? parseInt(g.dec, 10) : parseInt(g.hex as string, 16);
  return cp !== undefined && cp > 0 && cp <= 0x10ffff ? { cp, length: m[0].length } : undefined;
}

/** Dropped from the shadow: format characters (zero-width, bidi controls, soft hyphen, BOM) and combining marks. */
const INVISIBLE = /^[\p{Cf}\p{Mn}\p{Me}]$/u;

export interface TextShadow {
  text: string;
  /** The original range [start, end) of the shadow's characters [from, to). */
  range(from: number, to: number): { start: number; end: number };
}

export function shadowOf(original: string): TextShadow {
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < original.length; ) {
    const ref = original.charCodeAt(i) === 0x26 ? charRef(original, i) : undefined;
    const cp = ref?.cp ?? (original.codePointAt(i) as number);
    const ch = String.fromCodePoint(cp);
    const next = i + (ref?.length ?? ch.length);
    if (cp >= 0xe0020 && cp <= 0xe007e) {
      // Unicode tag characters: invisible, yet models read them as the ASCII they shadow ("ASCII smuggling").
      text += String.fromCharCode(cp - 0xe0000);
      starts.push(i);
      ends.push(next);
    } else if (!INVISIBLE.test(ch)) {
      const folded = cp < 0x80 ? ch : [...ch.normalize('NFKC')].map((c) => LOOK_ALIKES[c] ?? c).join('');
      for (let k = 0; k < folded.length; k++) {
        starts.push(i);
        ends.push(next);
      }
      text += folded;
    }
    i = next;
  }
  return {
    text,
    range(from, to) {
      const start = from < starts.length ? (starts[from] as number) : original.length;
      const end = to > from ? (ends[to - 1] as number) : start;
      return { start, end };
    },
  };
}
