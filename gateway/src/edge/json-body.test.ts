import { describe, expect, it } from 'vitest';
import { AppError } from '@vrs/kit';
import { checkJsonBody } from './json-body';

const refusal = (text: string | Buffer, encoding?: string) => {
  try {
    checkJsonBody(typeof text === 'string' ? Buffer.from(text) : text, encoding);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const { code, details } = error as AppError;
    return { code, details };
  }
};

describe('checkJsonBody', () => {
  it('passes JSON whose keys differ, however strings hide quotes, backslashes and brackets', () => {
    for (const text of [
      '{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}',
      '{"a\\"":1,"a":2,"a\\\\":3}',
      '{"x":"\\\\","y":"}{\\"a\\":1,\\"a\\":2"}',
      '{"name":"[[[[","items":["a","a"]}',
      '{"é":1,"e\\u0301":2}',
      '[]',
    ]) {
      expect(refusal(text), text).toBeUndefined();
    }
  });

  it('names a duplicate key and where it is, at any depth, escapes decoded', () => {
    expect(refusal('{"a":1,"a":2}')).toEqual({ code: 'DUPLICATE_KEY', details: { key: 'a', path: 'a' } });
    expect(refusal('{"a":1,"\\u0061" : 2}')).toEqual({ code: 'DUPLICATE_KEY', details: { key: 'a', path: 'a' } });
    expect(refusal('{"items":[{"t":1},{"u":{"v":1,"v":2}}]}')).toEqual({
      code: 'DUPLICATE_KEY',
      details: { key: 'v', path: 'items.1.u.v' },
    });
    expect(refusal('[[1,2],[3,{"k":"x","k":"y"}]]')).toEqual({ code: 'DUPLICATE_KEY', details: { key: 'k', path: '1.1.k' } });
  });

  it('leaves a body that is not JSON to JSON.parse, duplicate or not', () => {
    expect(refusal('{"a":1,"a":2')).toBeUndefined();
    expect(refusal('{"a":1,"a":2,}')).toBeUndefined();
    expect(refusal('{"a')).toBeUndefined();
  });

  it('refuses bytes that are not UTF-8 anywhere, and nesting deeper than 64', () => {
    expect(refusal(Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]))?.code).toBe(
      'MALFORMED_JSON',
    );
    expect(refusal(Buffer.from([0x7b, 0xed, 0xa0, 0x80, 0x7d]))?.code).toBe('MALFORMED_JSON');
    expect(refusal(`${'['.repeat(64)}${']'.repeat(64)}`)).toBeUndefined();
    expect(refusal(`${'['.repeat(65)}${']'.repeat(65)}`)?.code).toBe('JSON_TOO_DEEP');
  });

  it('reads another Unicode charset strictly, and refuses one it cannot decode', () => {
    expect(refusal(Buffer.from('{"a":1,"a":2}', 'utf16le'), 'utf-16le')?.code).toBe('DUPLICATE_KEY');
    expect(refusal(Buffer.from([0x7b, 0x00, 0x00, 0xd8, 0x7d, 0x00]), 'utf-16le')?.code).toBe('MALFORMED_JSON');
    expect(refusal(Buffer.from('{}'), 'utf-32')?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});
