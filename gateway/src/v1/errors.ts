/** Error statuses documented for every authenticated operation, beside its own. */
export const authenticatedErrors = [401, 403, 429, 500, 503] as const;
export const meteredErrors = [...authenticatedErrors, 402] as const;
