import { describe, expect, it } from 'vitest';
import { paths } from '../../config/paths';
import { readState } from './url-state';

const defaults = { k: 3, loss: 0.1, kind: 'bernoulli', text: 'hello' };
const choices = { kind: ['bernoulli', 'outage'] };

describe('readState', () => {
  it('reads numbers and strings from the query string', () => {
    expect(readState('?k=10&loss=0.25&kind=outage&text=a%20b', defaults, choices)).toEqual({
      k: 10,
      loss: 0.25,
      kind: 'outage',
      text: 'a b',
    });
  });

  it('keeps the default of a field that is absent, not a number, or not an allowed choice', () => {
    expect(readState('?k=ten&loss=&kind=lossy', defaults, choices)).toEqual(defaults);
  });

  it('ignores fields it does not know', () => {
    expect(readState('?lab=fec&unknown=1', defaults, choices)).toEqual(defaults);
  });
});

describe('a lab’s address', () => {
  it('names the lab first and round-trips through readState', () => {
    const state = { k: 5, loss: 0.01, kind: 'outage', text: 'S(5,100) & more' };
    const search = paths.lab('fec', state);
    expect(search.startsWith('?lab=fec&')).toBe(true);
    expect(readState(search, defaults, choices)).toEqual(state);
  });
});
