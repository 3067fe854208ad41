/**
 * The few WebAssembly binary encodings the sandbox writes itself: the instruction counter patches
 * wasmoon's module (instruction-counter.ts) and the memory meter is a module written out in the
 * source (memory-meter.ts). Both follow the WebAssembly binary format's LEB128 integers, names and
 * vectors.
 */

/** An unsigned LEB128 integer (any safe integer, not only 32 bits: lengths and offsets). */
export function unsigned(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

/** A signed LEB128 32-bit integer (i32.const operands). */
export function signed32(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      bytes.push(byte);
      return bytes;
    }
    bytes.push(byte | 0x80);
  }
}

/** A name: its UTF-8 length, then its bytes. */
export function name(text: string): number[] {
  return [...unsigned(Buffer.byteLength(text, 'utf8')), ...Buffer.from(text, 'utf8')];
}

/** A vector: its item count, then the items. */
export function vector(items: number[][]): number[] {
  return [...unsigned(items.length), ...items.flat()];
}

/** A section: its id, its content's length, then the content. */
export function section(id: number, content: number[]): number[] {
  return [id, ...unsigned(content.length), ...content];
}
