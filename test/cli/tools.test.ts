import { describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";

describe("hookwise tools", () => {
  it("lists each tool by the model's name and the hooks' name, with description and input", async () => {
    const out = await cli(["tools", "examples/quickstart/hookwise.yaml"]);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    expect(out.stdout.split("\n")).toEqual([
      "agent main · 3 tools (model's name · hooks' name)",
      "  calc_add · calc.add  { a: number, b: number }",
      "      Add two numbers",
      "  calc_delete_everything · calc.delete_everything  {}",
      "      Delete every file in the workspace (the policy below never lets this run)",
      "  calc_weather · calc.weather  { city: string }",
      "      Today's weather for a city",
      "",
    ]);
  }, 60_000);

  it("--json gives both names and the full input schema", async () => {
    const out = await cli(["tools", "examples/quickstart/hookwise.yaml", "--json"]);
    expect(out.code).toBe(0);
    const [main] = JSON.parse(out.stdout) as { agent: string; tools: Record<string, unknown>[] }[];
    expect(main!.agent).toBe("main");
    expect(main!.tools[0]).toEqual({
      functionName: "calc_add",
      qualifiedName: "calc.add",
      toolset: "calc",
      description: "Add two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
        additionalProperties: false,
      },
    });
  }, 60_000);

  it("an unknown agent is a usage error naming it", async () => {
    const out = await cli(["tools", "examples/quickstart/hookwise.yaml", "--agent", "nope"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('unknown agent "nope"');
  }, 60_000);
});
