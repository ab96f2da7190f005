import { describe, expect, it } from 'vitest';
import { missingByteMark, receivedText, splitIntoSymbols } from './payload';

const encode = (text: string) => new TextEncoder().encode(text);

describe('splitIntoSymbols', () => {
  it('cuts bytes into symbols and zero-pads the last one', () => {
    expect(splitIntoSymbols(encode('abcdefg'), 3)).toEqual([encode('abc'), encode('def'), Uint8Array.of(0x67, 0, 0)]);
  });
});

describe('receivedText', () => {
  const symbols = splitIntoSymbols(encode('abcdefg'), 3);

  it('gives back the text, without padding, when every symbol is there', () => {
    expect(receivedText(symbols, 3, 7)).toBe('abcdefg');
  });

  it('marks each byte of a missing symbol', () => {
    expect(receivedText([symbols[0], undefined, symbols[2]], 3, 7)).toBe(`abc${missingByteMark.repeat(3)}g`);
    expect(receivedText([symbols[0], symbols[1], undefined], 3, 7)).toBe(`abcdef${missingByteMark}`);
  });
});
