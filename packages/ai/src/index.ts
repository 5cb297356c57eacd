export * from './config';
export * from './create-llm';
export * from './ground-citations';
export * from './check-cited-text';
export * from './step-with-tools';
export * from './check-quoted-findings';
