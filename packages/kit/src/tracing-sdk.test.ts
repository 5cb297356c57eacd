import { createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { SynchronousContextManager } from './tracing-sdk';

const key = createContextKey('request');
const contextOf = (name: string) => ROOT_CONTEXT.setValue(key, name);
const activeName = (manager: SynchronousContextManager) => manager.active().getValue(key);

describe('SynchronousContextManager', () => {
  it('makes a context active for the synchronous extent of `with`, nested, and restores the outer one', () => {
    const manager = new SynchronousContextManager();
    const seen = manager.with(contextOf('outer'), () => {
      const inner = manager.with(contextOf('inner'), () => activeName(manager));
      return [inner, activeName(manager)];
    });
    expect(seen).toEqual(['inner', 'outer']);
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it('restores the outer context when the work throws', () => {
    const manager = new SynchronousContextManager();
    expect(() =>
      manager.with(contextOf('failing'), () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it('follows nothing across an await: what runs after it sees the context active then (ADR 0117)', async () => {
    const manager = new SynchronousContextManager();
    const after = manager.with(contextOf('request'), async () => {
      await Promise.resolve();
      return activeName(manager);
    });
    expect(await after).toBeUndefined();
  });

  it('runs a bound function in the context it was bound to, with its arguments and this', () => {
    const manager = new SynchronousContextManager();
    const bound = manager.bind(contextOf('queued'), function (this: { tag: string }, suffix: string) {
      return `${this.tag}${suffix}:${String(activeName(manager))}`;
    });
    expect(bound.call({ tag: 'req' }, '-1')).toBe('req-1:queued');
    expect(manager.active()).toBe(ROOT_CONTEXT);
    const emitterLike = { on: () => undefined };
    expect(manager.bind(contextOf('x'), emitterLike)).toBe(emitterLike);
  });
});
