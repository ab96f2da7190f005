import { describe, expect, it } from 'vitest';
import { windowLanes } from './window-lanes';

describe('windowLanes', () => {
  it('reuses a lane once the window before it has ended', () => {
    const extents = [
      { start: 0, end: 100 },
      { start: 50, end: 150 },
      { start: 120, end: 200 },
      { start: 160, end: 260 },
    ];
    expect(windowLanes(extents)).toEqual([0, 1, 0, 1]);
  });

  it('keeps a long run of S(3,9) as tall as a short one: as many lanes as windows overlap, not one per repair', () => {
    // A repair every 4 packets of 34 px, each window 9 sources back, its label about 100 px on.
    const cell = 34;
    const extents = Array.from({ length: 100 }, (_, repair) => {
      const index = 4 * repair + 3;
      return { start: Math.max(0, index - 12) * cell, end: index * cell + 100 };
    });
    expect(Math.max(...windowLanes(extents)) + 1).toBeLessThanOrEqual(5);
  });
});
