/** Deterministic pseudo-random text of `length` characters drawn from `alphabet` (a linear congruential generator from `seed`). */
export function randomText(seed: number, length: number, alphabet: string): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[x % alphabet.length];
  }
  return out;
}
