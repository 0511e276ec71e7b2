/**
 * How the file tools see a file's bytes as text, and turn text back into the same kind of bytes.
 *
 *   bytes ──sniff──▶ UTF-8 (BOM kept apart) │ UTF-16 LE/BE (BOM) │ Windows-1252 (not valid UTF-8) │ binary (NUL)
 *
 * Windows-1252 is decoded as WHATWG does (its five unassigned bytes map to U+0081…), so every byte has
 * exactly one character and back: a file is never changed where nobody edited it. Edits themselves are
 * done on bytes (see edit-file.ts); this module only encodes the model's snippets into the file's encoding.
 */

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface SniffedText {
  kind: 'text';
  encoding: TextEncodingName;
  /** Length in bytes of the byte-order mark at the start (0 when none). */
  bomLength: number;
  /** The text after the BOM. */
  text: string;
}

export type Sniffed = SniffedText | { kind: 'binary' };

/** Git's heuristic: a NUL byte in the first 8 KB means binary (checked after a UTF-16 BOM). */
const BINARY_SNIFF_BYTES = 8000;

/** Windows-1252 bytes 0x80–0x9F; the unassigned ones (0x81, 0x8D, 0x8F, 0x90, 0x9D) keep their C1 code point. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d, 0x017d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x9d, 0x017e, 0x0178,
];
let cp1252Reverse: Map<number, number> | undefined;

const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function sniffText(buf: Buffer): Sniffed {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return { kind: 'text', encoding: 'utf-16le', bomLength: 2, text: buf.subarray(2).toString('utf16le') };
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return { kind: 'text', encoding: 'utf-16be', bomLength: 2, text: swap16(buf.subarray(2)).toString('utf16le') };
  if (buf.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { kind: 'binary' };
  const bomLength = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  try {
    return { kind: 'text', encoding: 'utf-8', bomLength, text: utf8Strict.decode(buf.subarray(bomLength)) };
  } catch {
    return { kind: 'text', encoding: 'windows-1252', bomLength: 0, text: decodeCp1252(buf) };
  }
}

/** Decodes bytes of a known encoding (no BOM handling: pass the bytes after it). */
export function decodeAs(buf: Buffer, encoding: TextEncodingName): string {
  switch (encoding) {
    case 'utf-8':
      return buf.toString('utf8');
    case 'utf-16le':
      return buf.toString('utf16le');
    case 'utf-16be':
      return swap16(buf).toString('utf16le');
    case 'windows-1252':
      return decodeCp1252(buf);
  }
}

/**
 * Encodes `text` in `encoding`; for Windows-1252, characters it cannot hold are listed instead (a lossy
 * `?` would silently corrupt the file).
 */
export function encodeAs(text: string, encoding: TextEncodingName): { ok: true; bytes: Buffer } | { ok: false; unencodable: string[] } {
  switch (encoding) {
    case 'utf-8':
      return { ok: true, bytes: Buffer.from(text, 'utf8') };
    case 'utf-16le':
      return { ok: true, bytes: Buffer.from(text, 'utf16le') };
    case 'utf-16be':
      return { ok: true, bytes: swap16(Buffer.from(text, 'utf16le')) };
    case 'windows-1252':
      return encodeCp1252(text);
  }
}

/** What to tell the model about a file that is not plain UTF-8 (empty for plain UTF-8). */
export function encodingNote(sniffed: SniffedText): string {
  switch (sniffed.encoding) {
    case 'utf-8':
      return '';
    case 'utf-16le':
    case 'utf-16be':
      return `${sniffed.encoding.toUpperCase()} with a byte-order mark`;
    case 'windows-1252':
      return 'not valid UTF-8: shown decoded as Windows-1252 (Latin-1); if it is another encoding, non-ASCII characters may show wrongly';
  }
}

function decodeCp1252(buf: Buffer): string {
  let out = '';
  // Chunks keep String.fromCharCode's argument list short.
  for (let start = 0; start < buf.length; start += 8192) {
    const codes: number[] = [];
    for (const byte of buf.subarray(start, start + 8192)) codes.push(byte >= 0x80 && byte < 0xa0 ? (CP1252_HIGH[byte - 0x80] as number) : byte);
    out += String.fromCharCode(...codes);
  }
  return out;
}

function encodeCp1252(text: string): { ok: true; bytes: Buffer } | { ok: false; unencodable: string[] } {
  cp1252Reverse ??= new Map(CP1252_HIGH.map((code, i) => [code, 0x80 + i]));
  const bytes = Buffer.alloc(text.length);
  const bad = new Set<string>();
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const mapped = code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : cp1252Reverse.get(code);
    if (mapped !== undefined) {
      bytes[i] = mapped;
      continue;
    }
    bad.add(String.fromCodePoint(text.codePointAt(i) ?? code));
    if (code >= 0xd800 && code < 0xdc00) i++; // the whole astral character is listed once
  }
  return bad.size ? { ok: false, unencodable: [...bad] } : { ok: true, bytes };
}

function swap16(buf: Buffer): Buffer {
  const copy = Buffer.from(buf.subarray(0, buf.length - (buf.length % 2)));
  return copy.swap16();
}
