#!/usr/bin/env node
// The installed CLI runs the built bundle (npm run build). In a checkout, use `npx tsx src/cli/main.ts`.
import module from "node:module";

// On Node 22.1 and later, Node keeps the CLI's compiled code between runs (its own compile
// cache; NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has none: the call is skipped.
module.enableCompileCache?.();
process.env.HOOKWISE_CLI = "1";
await import("../dist/cli.mjs");
