import type { Clock } from '../../src/clock.js';

/** A clock that tests move forward by hand: time-based rules are checked without waiting. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
