import { describe, expect, it } from 'vitest';
import { ValueSyntaxError, formatValue, parseValue, parseValueList } from './parameter-values';

describe('parseValueList', () => {
  it('reads comma-separated words, numbers, booleans and null as YAML does', () => {
    expect(parseValueList('cubic, bbr')).toEqual(['cubic', 'bbr']);
    expect(parseValueList(' 12, 0.5,-3, 1e3 ,true, False, null, ~')).toEqual([12, 0.5, -3, 1000, true, false, null, null]);
    expect(parseValueList('')).toEqual([]);
  });

  it('reads mappings and lists, YAML flow style or JSON, as one value each', () => {
    expect(parseValueList('null, {k: 5, z: 100}')).toEqual([null, { k: 5, z: 100 }]);
    expect(parseValueList('{"k": 2, "z": 100, "protect": "tcp,udp:5001"}, []')).toEqual([
      { k: 2, z: 100, protect: 'tcp,udp:5001' },
      [],
    ]);
    expect(parseValueList('{model: bernoulli, loss: 0.01}, {model: outage, period_ms: 258, phases: [0, 1]}')).toEqual([
      { model: 'bernoulli', loss: 0.01 },
      { model: 'outage', period_ms: 258, phases: [0, 1] },
    ]);
  });

  it('keeps quoted text as text, commas included', () => {
    expect(parseValueList(`"null", 'it''s', "a, b", '12'`)).toEqual(['null', "it's", 'a, b', '12']);
  });

  it('says what is wrong, and where', () => {
    expect(() => parseValueList('cubic,, bbr')).toThrow(new ValueSyntaxError('a value is missing at character 7 of "cubic,, bbr"'));
    expect(() => parseValueList('cubic,')).toThrow('a value is missing at the end of "cubic,"');
    expect(() => parseValueList('null, {k: 5, z: 100')).toThrow('expected "," or "}" in a {…} mapping at the end of "null, {k: 5, z: 100"');
    expect(() => parseValueList('{k 5}')).toThrow('expected ":" after a key at character 5');
    expect(() => parseValueList('{k: 5} x')).toThrow('unexpected text after } at character 8');
    expect(() => parseValueList('"bbr')).toThrow('a " is not closed at character 1');
  });
});

describe('parseValue', () => {
  it('reads the value of one override, unquoted text being one value', () => {
    expect(parseValue('200000')).toBe(200000);
    expect(parseValue(' null ')).toBeNull();
    expect(parseValue('traces/a, b.txt')).toBe('traces/a, b.txt');
    expect(parseValue('{k: 5, z: 100}')).toEqual({ k: 5, z: 100 });
    expect(parseValue('')).toBe('');
  });

  it('refuses text after a mapping', () => {
    expect(() => parseValue('{k: 5} {z: 1}')).toThrow(ValueSyntaxError);
  });
});

describe('formatValue', () => {
  it('prints text as it is and the rest as compact JSON, as the backend names configurations', () => {
    expect(formatValue('cubic')).toBe('cubic');
    expect(formatValue(null)).toBe('null');
    expect(formatValue({ k: 5, z: 100 })).toBe('{"k":5,"z":100}');
  });
});
