import { describe, expect, it } from 'vitest';
import { ApiError } from '@vrs/client';
import { clock, colorsEnabled, count, errorJson, formatError, Output, renderTable } from './output';
import { UsageError } from './exit-codes';

function sink(isTTY = false) {
  let text = '';
  return { isTTY, write: (chunk: string) => (text += chunk), text: () => text };
}

const envelopeError = new ApiError({
  status: 422,
  code: 'VALIDATION_FAILED',
  message: 'The request failed validation.',
  requestId: 'req_42',
  details: { issues: [{ path: 'limit', message: 'Too big' }] },
});

describe('output', () => {
  it('colours only on a TTY, never with NO_COLOR or --json', () => {
    expect(colorsEnabled({ isTTY: true }, {}, false)).toBe(true);
    expect(colorsEnabled({ isTTY: false }, {}, false)).toBe(false);
    expect(colorsEnabled({ isTTY: true }, { NO_COLOR: '1' }, false)).toBe(false);
    expect(colorsEnabled({ isTTY: true }, {}, true)).toBe(false);
    // An empty NO_COLOR does not count (no-color.org).
    expect(colorsEnabled({ isTTY: true }, { NO_COLOR: '' }, false)).toBe(true);
  });

  it('prints results as JSON with --json and as the human text otherwise; notes go to stderr and are silent with --json', () => {
    const out = sink();
    const err = sink();
    const human = new Output({ json: false, stdout: out, stderr: err, env: {} });
    human.result({ id: 'p1' }, (project) => `Project ${project.id}`);
    human.note('working');
    expect(out.text()).toBe('Project p1\n');
    expect(err.text()).toBe('working\n');

    const jsonOut = sink();
    const jsonErr = sink();
    const machine = new Output({ json: true, stdout: jsonOut, stderr: jsonErr, env: {} });
    machine.result({ id: 'p1' }, () => 'ignored');
    machine.note('working');
    machine.event({ event: 'status', status: 'running' }, 'ignored');
    expect(JSON.parse(jsonOut.text())).toEqual({ id: 'p1' });
    expect(jsonErr.text()).toBe('{"event":"status","status":"running"}\n');
  });

  it('shows every API error with its message, code, status, requestId and field issues', () => {
    expect(formatError(envelopeError)).toBe(
      ['Error: The request failed validation.', '  code: VALIDATION_FAILED (HTTP 422)', '  requestId: req_42', '  limit: Too big'].join(
        '\n',
      ),
    );
    expect(errorJson(envelopeError)).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: 'The request failed validation.',
        status: 422,
        requestId: 'req_42',
        details: { issues: [{ path: 'limit', message: 'Too big' }] },
      },
    });
    expect(errorJson(new UsageError('Name a source.'))).toEqual({ error: { code: 'USAGE', message: 'Name a source.' } });
  });

  it('renders tables without colour codes when colours are off', () => {
    const table = renderTable(
      ['id', 'name'],
      [
        ['p1', 'Espresso'],
        ['p2', null],
      ],
    );
    expect(table).toContain('Espresso');
    expect(table.includes('\u001b[')).toBe(false);
    expect(table.split('\n').filter((line) => line.includes('p2'))).toHaveLength(1);
    expect(renderTable(['id'], [])).toBe('(none)');
  });

  it('formats counts and timestamps as people read them', () => {
    expect(count(1234567)).toBe('1,234,567');
    expect(count(null)).toBe('–');
    expect(clock(65_000)).toBe('01:05');
    expect(clock(3_725_000)).toBe('1:02:05');
  });
});
