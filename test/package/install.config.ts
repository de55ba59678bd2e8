/**
 * `npm run test:install`: the packed tarball installed into scratch apps (see
 * installs.install.ts). Kept out of `npm test`: it packs, builds and installs from the registry.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/package/*.install.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: "forks",
  },
});
