/** splitIntoSymbols cuts bytes into symbols of symbolBytes bytes, the last one zero-padded. */
export function splitIntoSymbols(bytes: Uint8Array, symbolBytes: number): Uint8Array[] {
  const symbols: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += symbolBytes) {
    const symbol = new Uint8Array(symbolBytes);
    symbol.set(bytes.subarray(offset, offset + symbolBytes));
    symbols.push(symbol);
  }
  return symbols;
}

/** The hole marker: one per byte of a symbol the receiver does not have. */
export const missingByteMark = '\u2591';

/**
 * receivedText renders what the receiver holds as text: runs of known symbols decoded as UTF-8,
 * each byte of a missing symbol as a hole marker, cut to the original length (no padding).
 */
export function receivedText(symbols: (Uint8Array | undefined)[], symbolBytes: number, lengthBytes: number): string {
  const bytes = new Uint8Array(symbols.length * symbolBytes);
  symbols.forEach((symbol, esi) => symbol && bytes.set(symbol, esi * symbolBytes));
  const decoder = new TextDecoder();
  let text = '';
  for (let start = 0; start < symbols.length; ) {
    const isKnown = symbols[start] !== undefined;
    let end = start;
    while (end < symbols.length && (symbols[end] !== undefined) === isKnown) end += 1;
    const from = start * symbolBytes;
    const to = Math.min(end * symbolBytes, lengthBytes);
    text += isKnown ? decoder.decode(bytes.subarray(from, to)) : missingByteMark.repeat(Math.max(0, to - from));
    start = end;
  }
  return text;
}
