#!/usr/bin/env node
import { createProgram } from './program.ts';

createProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    console.error(`signpost: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
