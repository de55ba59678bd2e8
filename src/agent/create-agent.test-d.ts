import { expectTypeOf, test } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod-v3";
import { scriptedModel } from "../models/scripted-model.js";
import { createAgent } from "./create-agent.js";

const model = scriptedModel([{ text: '{ "city": "Paris", "celsius": 21 }' }]);

test("result.output has the type of the output schema (zod 4, zod 3)", async () => {
  const agent = createAgent({ model, output: z.object({ city: z.string(), celsius: z.number() }) });
  const result = await agent.run("weather?");
  expectTypeOf(result.output).toEqualTypeOf<{ city: string; celsius: number } | undefined>();
  expectTypeOf((await agent.stream("weather?").result).output).toEqualTypeOf<
    { city: string; celsius: number } | undefined
  >();
  const v3 = createAgent({ model, output: z3.object({ n: z3.number() }) });
  expectTypeOf((await v3.run("n?")).output).toEqualTypeOf<{ n: number } | undefined>();
});

test("without an output schema, result.output is unknown", async () => {
  const result = await createAgent({ model }).run("hi");
  expectTypeOf(result.output).toEqualTypeOf<unknown>();
});
