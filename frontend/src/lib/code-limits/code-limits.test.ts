import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codeLimits, codeProblems, hasProblems } from '.';

/** What GET api/limits/tunnel answers, from the backend's own handler (its virtual environment, make venv). */
function servedTunnelLimits(): { k: { min: number; max: number }; z: { min: number; max: number }; k_at_most_z: boolean } {
  const python = fileURLToPath(new URL('../../../../backend/.venv/bin/python', import.meta.url));
  const script = 'from satlab.api.routes.admin import get_tunnel_limits; print(get_tunnel_limits(None).model_dump_json())';
  return JSON.parse(execFileSync(python, ['-c', script], { encoding: 'utf8' }));
}

describe('codeLimits', () => {
  it('are the ranges of k and z GET api/limits/tunnel serves, k at most z', () => {
    const served = servedTunnelLimits();
    expect({ k: codeLimits.k, z: codeLimits.z }).toEqual({ k: served.k, z: served.z });
    expect(served.k_at_most_z).toBe(true);
    expect(codeProblems({ k: served.z.max, z: served.z.max - 1 }).k).toHaveLength(1);
  });
});

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
