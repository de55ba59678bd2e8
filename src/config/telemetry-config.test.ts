/**
 * `runtime.telemetry` end to end: a config's gate shows as a denied hook span, the config's
 * function_id names every span, and content stays off the spans unless the config asks.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { MemoryStore } from "../state/memory-store.js";
import { recordingLogger } from "./build/test-evaluation.js";
import { loadConfig } from "./load-config.js";

let dir: string;
let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-telemetry-"));
  mkdirSync(join(dir, "workspace"));
  writeFileSync(join(dir, "workspace", "keep.txt"), "important");
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
});
afterEach(async () => {
  trace.disable();
  await provider.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

function config(telemetry: string): string {
  writeFileSync(
    join(dir, "hookwise.yaml"),
    `
models: { default: "scripted:./script.yaml" }
toolsets:
  fs: { kind: builtin, module: filesystem, root: ./workspace }
runtime:
  telemetry: ${telemetry}
  hooks:
    - id: no-deletes
      on: tool_start
      condition: { type: tool_name, match: "fs.delete_file" }
      action: { type: gate, reason: "deleting files is not allowed" }
`,
  );
  writeFileSync(
    join(dir, "script.yaml"),
    `
- tool_calls: [{ name: fs_read_file, args: { path: keep.txt } }, { name: fs_delete_file, args: { path: keep.txt } }]
- text: kept it
`,
  );
  return join(dir, "hookwise.yaml");
}

describe.each(SURFACES)("runtime.telemetry on %s()", (surface) => {
  it("a gate is a denied hook span under its tool call's span, named by function_id", async () => {
    const loaded = await loadConfig(config("{ function_id: support-bot }"), {
      store: new MemoryStore(),
      logger: recordingLogger(),
    });
    try {
      const { result } = await runOn(surface, await loaded.createAgent(), "tidy up");
      expect(result.outcome).toBe("completed");
      expect(existsSync(join(dir, "workspace", "keep.txt"))).toBe(true);
    } finally {
      await loaded.close();
    }
    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(0);
    for (const span of spans) expect(span.attributes["hookwise.function_id"]).toBe("support-bot");
    const gates = spans.filter((span) => span.name === "hookwise.hook no-deletes");
    // The gate's condition matches the delete only: one firing, one span.
    expect(gates).toHaveLength(1);
    expect(gates[0]!.attributes).toMatchObject({
      "hookwise.hook.event": "tool_call",
      "hookwise.hook.kind": "decide",
      "hookwise.hook.effect": "denied",
      "hookwise.hook.reason": "deleting files is not allowed",
    });
    const parent = spans.find((span) => span.spanContext().spanId === gates[0]!.parentSpanContext?.spanId);
    expect(parent?.name).toBe("execute_tool fs_delete_file");
    // Nothing recorded of the file's content or the prompt: the config did not ask.
    const text = JSON.stringify(spans.map((span) => span.attributes));
    expect(text).not.toContain("important");
    expect(text).not.toContain("tidy up");
  });

  it("enabled: false emits nothing; record_outputs records the tool result", async () => {
    for (const [telemetry, expectResult] of [
      ["{ enabled: false }", undefined],
      ["{ record_outputs: true }", "important"],
    ] as const) {
      exporter.reset();
      const loaded = await loadConfig(config(telemetry), {
        store: new MemoryStore(),
        logger: recordingLogger(),
      });
      try {
        await runOn(surface, await loaded.createAgent(), "tidy up");
      } finally {
        await loaded.close();
      }
      const spans = exporter.getFinishedSpans();
      if (expectResult === undefined) expect(spans).toEqual([]);
      else {
        const read = spans.find((span) => span.name === "execute_tool fs_read_file");
        expect(read?.attributes["gen_ai.tool.call.result"]).toContain(expectResult);
      }
    }
  });
});
