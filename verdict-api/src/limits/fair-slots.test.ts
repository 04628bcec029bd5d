import { describe, expect, it } from '@jest/globals';
import { FairSlots } from './fair-slots.js';

describe('FairSlots', () => {
  it('gives one tenant at most its share, and a freed place to the tenant whose turn it is', async () => {
    const slots = new FairSlots(3, 2);
    const order: string[] = [];
    const take = (tenant: string, label: string) => slots.acquire(tenant).then(() => void order.push(label));
    await take('a', 'a1');
    await take('a', 'a2');
    const waiting = [take('a', 'a3'), take('a', 'a4'), take('b', 'b1'), take('c', 'c1'), take('b', 'b2')];
    await Promise.resolve();
    // b takes the third place at once; a is at its share, c waits for a free place.
    expect(order).toEqual(['a1', 'a2', 'b1']);
    slots.release('a');
    await Promise.resolve();
    // a waited first, and is below its share again.
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3']);
    slots.release('b');
    await Promise.resolve();
    // c's turn before b's second request.
    expect(order.at(-1)).toBe('c1');
    slots.release('c');
    slots.release('a');
    await Promise.all(waiting);
    // a went to the back of the line when a3 took its turn: b2 before a4.
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3', 'c1', 'b2', 'a4']);
  });

  it('never hands out more places than it has', async () => {
    const slots = new FairSlots(2, 2);
    let held = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const tenant = `t${i % 3}`;
        await slots.acquire(tenant);
        held++;
        peak = Math.max(peak, held);
        await new Promise((r) => setTimeout(r, 1));
        held--;
        slots.release(tenant);
      }),
    );
    expect(peak).toBe(2);
  });
});
