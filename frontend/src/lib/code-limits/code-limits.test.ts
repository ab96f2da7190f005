import { describe, expect, it } from 'vitest';
import { codeProblems, hasProblems } from '.';

describe('codeProblems', () => {
  it('accepts the codes the backend accepts', () => {
    for (const code of [{ k: 1, z: 1 }, { k: 3, z: 9 }, { k: 100, z: 100 }, { k: 1000, z: 1000, symbolBytes: 1500 }]) {
      expect(codeProblems(code)).toEqual({});
    }
  });

  it('refuses k > z beside k, in a sentence', () => {
    for (const [k, z] of [[3, 2], [20, 5], [200, 100]]) {
      const problems = codeProblems({ k, z });
      expect(hasProblems(problems)).toBe(true);
      expect(problems.k?.[0]).toMatch(new RegExp(`^k \\(${k}\\) must be at most z \\(${z}\\): `));
      expect(problems.z).toBeUndefined();
    }
  });

  it('refuses what lies outside the backend and codec ranges, naming the range', () => {
    expect(codeProblems({ k: 0, z: 1001, symbolBytes: 70000 })).toEqual({
      k: ['k must be a whole number from 1 to 1000.'],
      z: ['z must be a whole number from 1 to 1000.'],
      symbolBytes: ['The symbol size must be a whole number from 1 to 65535.'],
    });
    expect(codeProblems({ k: 2.5 }).k).toEqual(['k must be a whole number from 1 to 1000.']);
  });
});
