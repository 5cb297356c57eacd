export * from './config';
export * from './create-llm';
export * from './ground-citations';
export * from './check-cited-text';
export * from './check-quoted-findings';
