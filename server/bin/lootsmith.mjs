#!/usr/bin/env node
// Runs the TypeScript CLI in this process through tsx, so the package needs no build step
// and signals (graceful shutdown) reach the server directly.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
