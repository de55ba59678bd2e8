#!/usr/bin/env node
// The installed CLI runs the built bundle (npm run build). In a checkout, use `npx tsx src/cli/main.ts`.
process.env.HOOKWISE_CLI = "1";
await import("../dist/cli.mjs");
