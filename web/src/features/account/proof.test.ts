import { describe, expect, it } from 'vitest';
import { proofOf } from './proof.ts';

describe('proofOf', () => {
  it('sends a code from the app or a recovery code as a code too, however typed', () => {
    expect(proofOf('123456')).toEqual({ password: '123456', code: '123456' });
    expect(proofOf(' 123 456 ')).toEqual({ password: ' 123 456 ', code: '123 456' });
    expect(proofOf('ABCDE-12345')).toEqual({ password: 'ABCDE-12345', code: 'ABCDE-12345' });
    expect(proofOf('abcde 12345')).toEqual({ password: 'abcde 12345', code: 'abcde 12345' });
  });

  it('sends anything else as the password only, spaces kept', () => {
    expect(proofOf('correct horse battery')).toEqual({ password: 'correct horse battery' });
    expect(proofOf(' secret password ')).toEqual({ password: ' secret password ' });
    expect(proofOf('ABCDE-123456')).toEqual({ password: 'ABCDE-123456' });
  });
});
