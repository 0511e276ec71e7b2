import assert from 'node:assert/strict';
import { EventBus } from '../../src/core/events';

describe('event bus', () => {
  it('delivers to every listener in sequence order, even when a listener is async and agents emit concurrently', async () => {
    const bus = new EventBus('s');
    const seen: number[] = [];
    bus.subscribe(async (e) => {
      if (e.seq === 1) await new Promise((r) => setTimeout(r, 30));
    });
    bus.subscribe((e) => {
      seen.push(e.seq);
    });
    await Promise.all([
      bus.emit('a', 'main', { type: 'text_delta', turn: 1, text: 'x' }),
      bus.emit('b', 'main', { type: 'text_delta', turn: 1, text: 'y' }),
      bus.emit('c', 'main', { type: 'text_delta', turn: 1, text: 'z' }),
    ]);
    assert.deepEqual(seen, [1, 2, 3]);
  });

  it('a failing listener fails that emit only', async () => {
    const bus = new EventBus('s');
    const seen: number[] = [];
    bus.subscribe((e) => {
      if (e.seq === 1) throw new Error('disk full');
      seen.push(e.seq);
    });
    await assert.rejects(bus.emit('a', null, { type: 'text_delta', turn: 1, text: 'x' }), /disk full/);
    await bus.emit('a', null, { type: 'text_delta', turn: 1, text: 'y' });
    assert.deepEqual(seen, [2]);
  });
});
