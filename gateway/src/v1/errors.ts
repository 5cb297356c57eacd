/** Error statuses documented for every authenticated operation, beside its own. */
export const authenticatedErrors = [401, 403, 429, 500, 503] as const;
export const meteredErrors = [...authenticatedErrors, 402] as const;
/** What a video itself can answer: 403 restricted (age, private, members, paid), 404 unavailable, 451 region-blocked. */
export const videoErrors = [403, 404, 451] as const;
