/**
 * A command's combined output, bounded in memory and complete on disk:
 *
 *   chunks ─▶ head (first half of the memory budget) + tail (last half)     total counted exactly
 *         └─▶ once the total passes the budget: spill file ◀─ head + tail so far, then every chunk
 *
 * Nothing is dropped before the spill file takes over, so the file holds the whole output (up to
 * `maxSpillChars`, after which it says where it stopped) and the model is told exactly what it sees.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface CapturedOutput {
  /** The whole output when it fit in memory; else its head and tail joined (no marker). */
  text: string;
  /** Characters the command printed in all. */
  totalChars: number;
  /** Set when the output was spilled: where the full text is, and how much of it the file holds. */
  spill?: { path: string; savedChars: number; /** Where in `text` the head ends and the tail begins. */ gapAt: number };
}

export class OutputCapture {
  private head = '';
  private tail = '';
  private total = 0;
  private readonly headMax: number;
  private readonly tailMax: number;
  private fd: number | undefined;
  private saved = 0;
  private spillFailed = false;

  constructor(
    memoryChars: number,
    /** Where to spill; without one the middle is dropped (and counted). */
    private readonly spillPath: string | undefined,
    private readonly maxSpillChars = 512 * 1024 * 1024,
  ) {
    this.headMax = Math.floor(memoryChars / 2);
    this.tailMax = memoryChars - this.headMax;
  }

  push(chunk: string): void {
    if (chunk === '') return;
    const before = this.total;
    this.total += chunk.length;
    if (this.fd === undefined && this.total > this.headMax + this.tailMax && before <= this.headMax + this.tailMax) this.openSpill();
    if (this.fd !== undefined) this.write(chunk);
    let rest = chunk;
    if (this.head.length < this.headMax) {
      const take = this.headMax - this.head.length;
      this.head += rest.slice(0, take);
      rest = rest.slice(take);
    }
    if (rest === '') return;
    this.tail += rest;
    // Trim lazily (at twice the size) so a flood of small chunks does not copy on every push.
    if (this.tail.length > this.tailMax * 2) this.tail = this.tail.slice(-this.tailMax);
  }

  finish(): CapturedOutput {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
    const tail = this.tailMax > 0 ? this.tail.slice(-this.tailMax) : '';
    const kept = this.head.length + tail.length;
    if (kept >= this.total) return { text: this.head + tail, totalChars: this.total };
    if (this.spillPath && !this.spillFailed) {
      return { text: this.head + tail, totalChars: this.total, spill: { path: this.spillPath, savedChars: this.saved, gapAt: this.head.length } };
    }
    // No file to point to: say in place what was dropped.
    return { text: `${this.head}\n[... ${(this.total - kept).toLocaleString('en-US')} of ${this.total.toLocaleString('en-US')} characters of output dropped (not saved) ...]\n${tail}`, totalChars: this.total };
  }

  /** Everything so far is still in memory (nothing dropped yet): it starts the file. */
  private openSpill(): void {
    if (!this.spillPath) return;
    try {
      mkdirSync(dirname(this.spillPath), { recursive: true });
      this.fd = openSync(this.spillPath, 'w');
      this.write(this.head + this.tail);
    } catch {
      this.spillFailed = true;
      this.fd = undefined;
    }
  }

  private write(text: string): void {
    if (this.fd === undefined) return;
    const room = this.maxSpillChars - this.saved;
    const part = text.length > room ? text.slice(0, room) : text;
    try {
      if (part) writeSync(this.fd, part);
      this.saved += part.length;
    } catch {
      this.spillFailed = true;
    }
    if (this.saved >= this.maxSpillChars) {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }
}
