import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Examples import the package by its name, as an app does; here that is the sources.
  resolve: {
    alias: [
      { find: /^hookwise$/, replacement: fileURLToPath(new URL("src/index.ts", import.meta.url)) },
      {
        find: /^hookwise\/ai-sdk$/,
        replacement: fileURLToPath(new URL("src/ai-sdk/index.ts", import.meta.url)),
      },
    ],
  },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
    typecheck: { enabled: true, include: ["src/**/*.test-d.ts", "test/**/*.test-d.ts"] },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
  },
});
