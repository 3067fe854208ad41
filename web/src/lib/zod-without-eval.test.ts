import { describe, expect, it } from 'vitest';
import './zod-without-eval.ts';
import { z } from 'zod';

describe('zod without eval', () => {
  it('is set before zod loads, through the settings zod reads', () => {
    expect(z.config().jitless).toBe(true);
  });

  it('parses object schemas without compiling a parser', () => {
    const original = globalThis.Function;
    let compiled = 0;
    globalThis.Function = new Proxy(original, {
      construct(target, args) {
        compiled += 1;
        return Reflect.construct(target, args) as object;
      },
    });
    try {
      const schema = z.object({ name: z.string().min(1), count: z.number().int() });
      for (let i = 0; i < 3; i += 1) expect(schema.parse({ name: 'a', count: i })).toEqual({ name: 'a', count: i });
    } finally {
      globalThis.Function = original;
    }
    expect(compiled).toBe(0);
  });
});
