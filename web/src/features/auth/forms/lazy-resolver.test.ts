import type { FieldValues, Resolver } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { lazyResolver } from './lazy-resolver.ts';

const options = { fields: {}, shouldUseNativeValidation: false } as Parameters<Resolver<FieldValues>>[2];
const accepting: Resolver<FieldValues> = async (values) => ({ values, errors: {} });

describe('lazyResolver', () => {
  it('loads the checks once, at the first check or the preload, whichever comes first', async () => {
    let loads = 0;
    const checks = lazyResolver(async () => {
      loads += 1;
      return accepting;
    });
    expect(loads).toBe(0);
    checks.preload();
    expect(await checks.resolver({ name: 'a' }, undefined, options)).toEqual({ values: { name: 'a' }, errors: {} });
    expect(await checks.resolver({ name: 'b' }, undefined, options)).toEqual({ values: { name: 'b' }, errors: {} });
    expect(loads).toBe(1);
  });

  it('tries again after a failed load, so a dropped connection does not break the form for good', async () => {
    const answers = [Promise.reject(new Error('offline')), Promise.resolve(accepting)];
    let loads = 0;
    const checks = lazyResolver(() => answers[loads++]!);
    await expect(checks.resolver({}, undefined, options)).rejects.toThrow('offline');
    expect(await checks.resolver({ name: 'c' }, undefined, options)).toEqual({ values: { name: 'c' }, errors: {} });
    expect(loads).toBe(2);
  });
});
