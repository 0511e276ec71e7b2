/**
 * Loads the highlighter bundle on first use, beside main.js, through a <script> element carrying
 * main.js's own nonce: the webview's CSP stays `script-src 'nonce-…'` (no host source, no eval).
 * Until it is there, code shows as plain text; callers get a callback to paint it afterwards.
 */
import { HIGHLIGHTER_GLOBAL, type Highlighter } from './highlight-api';

// Read while main.js runs: document.currentScript is null once the bundle has finished executing.
const mainScript = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
const bundleUrl = mainScript?.src ? new URL('highlight.js', mainScript.src).href : null;
const nonce = mainScript?.nonce ?? '';

let loaded: Highlighter | null = null;
let state: 'idle' | 'loading' | 'failed' = 'idle';
let waiting: Array<(highlighter: Highlighter) => void> = [];

/** The highlighter if it is loaded; otherwise null, and `later` runs once it has loaded (never, if it fails). */
export function highlighterOr(later: (highlighter: Highlighter) => void): Highlighter | null {
  if (loaded) return loaded;
  if (state === 'failed' || bundleUrl === null) return null;
  waiting.push(later);
  if (state === 'idle') load(bundleUrl);
  return null;
}

function load(url: string): void {
  state = 'loading';
  const script = document.createElement('script');
  script.src = url;
  script.nonce = nonce;
  script.async = true;
  const fail = (): void => {
    state = 'failed';
    waiting = [];
  };
  script.addEventListener('error', fail);
  script.addEventListener('load', () => {
    const highlighter = (globalThis as unknown as Record<string, unknown>)[HIGHLIGHTER_GLOBAL] as Highlighter | undefined;
    if (!highlighter) {
      fail();
      return;
    }
    loaded = highlighter;
    const callbacks = waiting;
    waiting = [];
    for (const paint of callbacks) paint(highlighter);
  });
  document.head.append(script);
}
