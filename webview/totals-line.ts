/**
 * The session's totals under the prompt box, in two lengths: the full line ("12 tasks · 142 calls · 191k tokens
 * (93% cached) · $1.23": the cache's share rides with the tokens it describes) and a compact one for a narrow
 * side bar ("12 tasks · 142 calls · 191k tok · $1.23"; the tooltip has the cache figures). The composer shows
 * the full one when it fits on one line, else the compact one (TotalsFit).
 */
import { cacheHitShare, formatTokens, formatUsd } from '../src/view-model/format';
import type { SessionViewState } from '../src/view-model/session-view';
import { setText } from './dom';

export interface TotalsLine {
  full: string;
  compact: string;
}

export function totalsLine(t: SessionViewState['totals']): TotalsLine {
  const share = cacheHitShare(t.tokens);
  const head = [`${t.tasks} task${t.tasks === 1 ? '' : 's'}`, `${t.toolCalls} call${t.toolCalls === 1 ? '' : 's'}`];
  const cost = t.costUsd ? [formatUsd(t.costUsd)] : [];
  const tokens = formatTokens(t.tokens);
  return {
    full: [...head, `${tokens}${share ? ` (${Math.round(share * 100)}% cached)` : ''}`, ...cost].join(' · '),
    compact: [...head, tokens.replace(/ tokens$/, ' tok'), ...cost].join(' · '),
  };
}

/**
 * Picks the length that fits, measured after layout (a ResizeObserver: no forced layout in the frame that
 * changed the text). Overflowing → compact; the bar grown wider → the full line is tried again.
 */
export class TotalsFit {
  private line: TotalsLine = { full: '', compact: '' };
  private compact = false;
  private barWidth = 0;

  constructor(private readonly element: HTMLElement, bar: HTMLElement) {
    new ResizeObserver(() => {
      const width = bar.clientWidth;
      if (width > this.barWidth + 1 && this.compact) this.compact = false;
      this.barWidth = width;
      if (!this.compact && element.scrollWidth > element.clientWidth + 1) this.compact = true;
      this.show();
    }).observe(bar);
    new ResizeObserver(() => {
      if (!this.compact && element.scrollWidth > element.clientWidth + 1) {
        this.compact = true;
        this.show();
      }
    }).observe(element);
  }

  set(line: TotalsLine): void {
    // A longer line may overflow where the last one fitted: measure it in full again.
    if (line.full.length > this.line.full.length) this.compact = false;
    this.line = line;
    this.show();
  }

  private show(): void {
    setText(this.element, this.compact ? this.line.compact : this.line.full);
  }
}
