import { z } from 'zod';
import { llmEnvShape } from '@vrs/ai/config';
import { maxStoryboardSheets } from '@vrs/contracts';
import { baseEnvShape, booleanFromEnv } from '@vrs/kit';

/** Access and budgets of agent runs (ADR 0025); read by the agents process and by `npm start`'s gateway, which hosts it. */
export const agentsEnvShape = {
  /** Off unless true: then allowlisted accounts (and demo users when AGENTS_DEMO_ACCESS) may admit runs. */
  AGENTS_ENABLED: booleanFromEnv.default(false),
  /** Account ids allowed besides those stored by `npm run agents:allow`, comma-separated. */
  AGENTS_ALLOWLIST: z
    .string()
    .default('')
    .transform((value) => value.split(',').flatMap((id) => id.trim() || [])),
  /** Admit every `X-Demo-User` account (npm start turns it on so a newcomer can try agents). */
  AGENTS_DEMO_ACCESS: booleanFromEnv.default(false),
  AGENTS_MAX_MODEL_STEPS: z.coerce.number().int().min(1).max(100).default(8),
  AGENTS_MAX_TOOL_CALLS: z.coerce.number().int().min(1).max(200).default(20),
  AGENTS_MAX_WALL_MS: z.coerce.number().int().min(100).default(120_000),
  /** Credits held at admission; tool calls are charged against it and the rest is returned when the run ends. */
  AGENTS_CREDIT_BUDGET: z.coerce.number().int().min(1).max(10_000).default(30),
  /** Storyboard sheets a `useStoryboard` run reads per video (each a grid of frames, handed to the model as one image). */
  AGENTS_STORYBOARD_MAX_SHEETS: z.coerce.number().int().min(1).max(maxStoryboardSheets).default(3),
  /** Bounds one video's storyboard capture (player, sheets, conversion) in the provider. */
  AGENTS_STORYBOARD_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
};

export const agentsEnvSchema = z.object({ ...baseEnvShape, ...llmEnvShape, ...agentsEnvShape });
export type AgentsConfig = z.infer<typeof agentsEnvSchema>;

export function agentsSettingsOf(config: z.infer<z.ZodObject<typeof agentsEnvShape>>) {
  return {
    enabled: config.AGENTS_ENABLED,
    allowlist: config.AGENTS_ALLOWLIST,
    demoAccess: config.AGENTS_DEMO_ACCESS,
    limits: {
      maxModelSteps: config.AGENTS_MAX_MODEL_STEPS,
      maxToolCalls: config.AGENTS_MAX_TOOL_CALLS,
      maxWallMs: config.AGENTS_MAX_WALL_MS,
      creditBudget: config.AGENTS_CREDIT_BUDGET,
    },
    storyboard: { maxSheets: config.AGENTS_STORYBOARD_MAX_SHEETS, timeoutMs: config.AGENTS_STORYBOARD_TIMEOUT_MS },
  };
}

export type AgentsSettings = ReturnType<typeof agentsSettingsOf>;
export type RunLimits = AgentsSettings['limits'];
