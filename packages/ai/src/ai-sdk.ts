export type AiSdk = typeof import('./ai-sdk-modules');

/** The chat models of the configured endpoint, as the AI SDK's OpenAI-compatible provider serves them. */
export type ChatModels = ReturnType<AiSdk['createOpenAICompatible']>;

/** The provider name is also the providerOptions key the call settings are read from. */
export const providerName = 'llm';

/**
 * The AI SDK is loaded by the first model call, not at start, so a process that never calls a model
 * does not hold it (ADR 0066). The call waits for it before its model's timeout starts. A failed import
 * fails that call; the promise is kept, so the SDK is imported once (ADR 0053).
 */
let loaded: Promise<AiSdk> | undefined;
export function loadAiSdk(): Promise<AiSdk> {
  loaded ??= import('./ai-sdk-modules');
  return loaded;
}

/** The SDK and the endpoint's models, made once per `createLlm` on its first call. */
export function lazyChatModels(baseURL: string, apiKey: string | undefined): () => Promise<{ sdk: AiSdk; models: ChatModels }> {
  let ready: Promise<{ sdk: AiSdk; models: ChatModels }> | undefined;
  return () => {
    ready ??= loadAiSdk().then((sdk) => ({
      sdk,
      models: sdk.createOpenAICompatible({
        name: providerName,
        baseURL,
        apiKey,
        // Send the schema as response_format json_schema (OpenAI, vLLM, Ollama, llama.cpp, LM Studio all
        // accept it); without this the SDK sends bare JSON mode and the model never sees the schema.
        supportsStructuredOutputs: true,
      }),
    }));
    return ready;
  };
}
