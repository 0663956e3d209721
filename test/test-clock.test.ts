// The test clock reads TEST_NOW plus the time elapsed, never the machine's date: moving the machine's clock
// (here Date, faked) leaves it where it is; clocks of one file agree; advance and set move one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_NOW, TestClock } from './helpers/clock.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the test clock', () => {
  it('starts at TEST_NOW whatever the date of the machine', () => {
    for (const machine of ['1999-12-31T23:59:30Z', '2031-02-28T12:00:00+14:00']) {
      vi.useFakeTimers({ now: new Date(machine), toFake: ['Date'] });
      const now = new TestClock().now().getTime();
      // At most as far past TEST_NOW as this process has run (files share a process, so that may be
      // many minutes), whenever the machine says it is: decades away here.
      expect(now - TEST_NOW.getTime()).toBeGreaterThanOrEqual(0);
      expect(now - TEST_NOW.getTime()).toBeLessThanOrEqual(Math.ceil(performance.now()));
      vi.useRealTimers();
    }
  });

  it('reads the same time in every clock of a file, until one is moved', () => {
    const first = new TestClock();
    const second = new TestClock();
    expect(Math.abs(first.now().getTime() - second.now().getTime())).toBeLessThanOrEqual(1);
    first.advance(61_000);
    expect(first.now().getTime() - second.now().getTime()).toBeGreaterThanOrEqual(60_999);
  });

  it('starts where it is told, and set moves it forwards or back', async () => {
    const at = new Date('2026-12-31T23:30:00Z');
    const clock = new TestClock(at);
    expect(clock.now().getTime() - at.getTime()).toBeLessThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(clock.now().getTime() - at.getTime()).toBeGreaterThanOrEqual(19); // it runs on
    const back = new Date('2026-03-29T01:30:00Z');
    clock.set(back);
    expect(clock.now().getTime() - back.getTime()).toBeLessThan(1000);
  });
});
