/**
 * What the fake model does when asked, set per model name:
 * - `ok`: answers from the prompt;
 * - `fail`: HTTP 500 in OpenAI's error shape;
 * - `timeout`: never answers (until reset or close);
 * - `invalid-json`: 200 whose JSON content is cut off mid-way;
 * - `wrong-shape`: 200 with valid JSON that ignores the requested schema;
 * - `cite-unknown`: like `ok`, but cites ids and `[n]` entries the prompt never gave;
 * - `tool-error`: in a tool loop, first calls a tool with arguments it refuses, then goes on as `ok`;
 * - `unground`: like `ok`, but quotes text no entry contains, cites entries past the last one, and
 *   names a person and a year the prompt never gave;
 * - `unground-once`: `unground`, except for a repair request (one naming grounding issues), which
 *   gets a grounded answer.
 */
export const behaviours = [
  'ok',
  'fail',
  'timeout',
  'invalid-json',
  'wrong-shape',
  'cite-unknown',
  'tool-error',
  'unground',
  'unground-once',
] as const;

export type Behaviour = (typeof behaviours)[number];

export function isBehaviour(value: unknown): value is Behaviour {
  return behaviours.includes(value as Behaviour);
}
