#!/usr/bin/env node
// The `vrs` command from a checkout: TypeScript sources run through tsx, nothing to build.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
