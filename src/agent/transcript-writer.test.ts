/**
 * A tool-call session's transcript: calls arriving together are saved together (not a save
 * each), and the transcript keeps the latest calls only — a save writes it whole.
 */
import { expect, it } from "vitest";
import { MemoryStore } from "../state/memory-store.js";
import type { SaveSessionOptions, SessionRecord } from "../state/state-store.js";
import { KEPT_MESSAGES, TranscriptWriter } from "./transcript-writer.js";

const log = { debug() {}, info() {}, warn() {}, error() {} };

function call(n: number) {
  return { toolCallId: `call_${n}`, toolName: "t_count", args: { n }, argsParsed: true, rawInput: "" };
}

it("saves a burst of calls in a few saves, and keeps the latest calls", async () => {
  let saves = 0;
  class CountingStore extends MemoryStore {
    override saveSession(record: SessionRecord, options?: SaveSessionOptions): Promise<number> {
      saves++;
      return super.saveSession(record, options);
    }
  }
  const store = new CountingStore();
  const writer = new TranscriptWriter(store, "s", log);
  for (let n = 0; n < 600; n++) writer.add(call(n), { result: { n }, isError: false });
  await writer.flush();
  expect(saves).toBeLessThanOrEqual(2);
  const session = await store.loadSession("s");
  expect(session?.runs).toBe(600);
  expect(session?.messages).toHaveLength(KEPT_MESSAGES);
  const last = session!.messages.at(-1) as {
    role: string;
    content: { toolCallId: string; output: unknown }[];
  };
  expect(last.role).toBe("tool");
  expect(last.content[0]).toMatchObject({
    toolCallId: "call_599",
    output: { type: "json", value: { n: 599 } },
  });
  expect(JSON.stringify(session!.messages)).not.toContain('"call_99"');
});
