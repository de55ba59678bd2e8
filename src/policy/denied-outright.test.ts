/**
 * A tool that a policy denies whatever its arguments (a deny without `when` decides it) is
 * not offered to the model at all — on `run()` and `stream()` — and a call to it anyway is
 * still denied without running. A conditional deny, or an allow that outranks the deny,
 * keeps the tool offered.
 */
import { describe, expect, test } from "vitest";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, type Policy, policy, resolveTool, scriptedModel } from "../index.js";
import { deniedOutright } from "./policy.js";

function calc(ran: string[]) {
  const make = (name: string) =>
    resolveTool(
      name,
      { description: name, inputSchema: { type: "object", properties: {} }, execute: () => ran.push(name) },
      { toolset: "calc" },
    );
  return [make("add"), make("delete_everything"), make("delete_one")];
}

function offered(model: ReturnType<typeof scriptedModel>, call = 0): string[] {
  return (model.calls[call]!.tools ?? []).map((item) => item.name).sort();
}

describe.each(SURFACES)("on %s()", (surface) => {
  test("an unconditional deny removes the tool from the model's request", async () => {
    const ran: string[] = [];
    const model = scriptedModel([{ text: "ok" }]);
    const agent = createAgent({
      model,
      tools: calc(ran),
      policies: [policy.deny("calc.delete_everything"), policy.deny("calc.delete_one", { when: () => true })],
    });
    const { result } = await runOn(surface, agent, "hi");
    expect(result.outcome).toBe("completed");
    expect(offered(model)).toEqual(["calc_add", "calc_delete_one"]);
  });

  test("a call to a hidden tool anyway is denied and does not run", async () => {
    const ran: string[] = [];
    const model = scriptedModel([
      { toolCalls: [{ name: "calc_delete_everything", args: {} }] },
      { text: "ok" },
    ]);
    const agent = createAgent({ model, tools: calc(ran), policies: [policy.deny("calc.delete_*")] });
    const { result } = await runOn(surface, agent, "hi");
    expect(offered(model)).toEqual(["calc_add"]);
    expect(ran).toEqual([]);
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("denied by policy");
    expect(result.outcome).toBe("completed");
  });
});

describe("deniedOutright follows the priority model", () => {
  const names = ["calc.delete_everything", "calc_delete_everything"];
  const cases: [string, Policy[], boolean][] = [
    ["exact deny", [policy.deny("calc.delete_everything")], true],
    ["glob deny", [policy.deny("calc.*")], true],
    ["deny everything", [policy.deny("*")], true],
    [
      "deny * but allow the tool (exact beats *)",
      [policy.deny("*"), policy.allow("calc.delete_everything")],
      false,
    ],
    ["conditional deny", [policy.deny("calc.*", { when: () => true })], false],
    [
      "conditional deny, then an unconditional one",
      [policy.deny("calc.delete_everything", { when: () => false }), policy.deny("calc.*")],
      true,
    ],
    [
      "conditional allow before the deny",
      [policy.allow("calc.delete_everything", { when: () => true }), policy.deny("*")],
      false,
    ],
    ["ask_user is still offered", [policy.askUser("calc.*")], false],
    ["no match", [policy.deny("other.*")], false],
  ];
  for (const [name, policies, expected] of cases) {
    test(name, () => expect(deniedOutright(policies, names)).toBe(expected));
  }
});
