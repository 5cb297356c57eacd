import { describe, expect, it } from 'vitest';
import { componentLogger, createLogger, rootLogger } from './logger';

describe('componentLogger', () => {
  it("names the part as the line's one component, keeping the parent's other bindings and level", () => {
    const parent = createLogger('research').child({ projectId: 'p1' }, { level: 'warn' });
    const part = componentLogger(parent, 'research-indexer');
    expect(part.bindings()).toEqual({ projectId: 'p1', component: 'research-indexer' });
    expect(part.level).toBe('warn');
    expect(rootLogger.bindings()).toEqual({});
  });
});
