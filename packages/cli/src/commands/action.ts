import { InvalidArgumentError, type Command } from 'commander';
import { contextOf, type CliContext } from '../context';
import type { Scope } from '../device-flow';

/** A commander action that receives the CLI context, its arguments and options; errors reach main's exit-code mapping. */
export function action<A extends unknown[]>(handler: (ctx: CliContext, ...args: A) => Promise<void>) {
  return async function (this: Command, ...args: unknown[]) {
    await handler(contextOf(this), ...(args as A));
  };
}

/** A positive whole number option (`--limit 5`), checked before any request. */
export function wholeNumber(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('Not a positive whole number.');
  return parsed;
}

/** `--scopes data:read,data:write` (commas or spaces); the server refuses an unknown one (422, exit 2). */
export function scopeList(value: string): Scope[] {
  const scopes = value.split(/[\s,]+/).filter(Boolean);
  if (scopes.length === 0) throw new InvalidArgumentError('Name at least one scope.');
  return scopes as Scope[];
}

/** The `--limit`/`--cursor` options of a list command, as the API's query (ADR 0020). */
export function pageQuery(options: { limit?: number; cursor?: string }) {
  return { ...(options.limit ? { limit: options.limit } : {}), ...(options.cursor ? { cursor: options.cursor } : {}) };
}

/** The line under a list's table that says how to ask for the next page, when there is one. */
export function nextPageHint(page: { hasMore: boolean; nextCursor: string | null }): string[] {
  return page.hasMore ? [`more: --cursor ${page.nextCursor}`] : [];
}
