import { describe, expect, it } from 'vitest';
import { required } from './required';

describe('required', () => {
  it('answers a value that is there, falsy ones included', () => {
    expect(required('text', 'a text')).toBe('text');
    expect(required(0, 'a count')).toBe(0);
    expect(required('', 'a text')).toBe('');
    expect(required(false, 'a flag')).toBe(false);
  });

  it('throws, naming what was missing, for undefined and null', () => {
    expect(() => required(undefined, 'the window of a finding')).toThrow('missing the window of a finding');
    expect(() => required(null, 'the run just cancelled')).toThrow('missing the run just cancelled');
  });
});
