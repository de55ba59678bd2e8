import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";

describe("hookwise --version", () => {
  it("prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) {
      const out = await cli([flag]);
      expect(out).toMatchObject({ code: 0, stdout: `${version}\n` });
    }
  }, 60_000);
});
