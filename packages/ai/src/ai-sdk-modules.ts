// What the model calls use of the AI SDK, in one module so that `loadAiSdk` imports it on first use.
export { createOpenAICompatible } from '@ai-sdk/openai-compatible';
export {
  APICallError,
  generateText,
  JSONParseError,
  jsonSchema,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
  RetryError,
  TypeValidationError,
  tool,
} from 'ai';
