import { describe, expect, it } from 'vitest';
import { createOwned } from './create-owned';

function tracked(log: string[], name: string) {
  return { name, free: () => log.push(`free ${name}`) };
}

describe('createOwned', () => {
  it('returns what create made and frees nothing when it succeeds', () => {
    const log: string[] = [];
    const made = createOwned((own) => ({ a: own(tracked(log, 'a')), b: own(tracked(log, 'b')) }));
    expect([made.a.name, made.b.name]).toEqual(['a', 'b']);
    expect(log).toEqual([]);
  });

  it('frees what was made before a failure, then passes the error on', () => {
    const log: string[] = [];
    expect(() =>
      createOwned((own) => {
        own(tracked(log, 'encoder'));
        own(tracked(log, 'decoder'));
        throw new Error('Invalid channel config: field intervals is wrong.');
      }),
    ).toThrow('field intervals');
    expect(log).toEqual(['free encoder', 'free decoder']);
  });
});
