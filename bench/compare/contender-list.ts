/**
 * The contenders a case may name, each loaded (`import()`) only by the processes that
 * measure it. Contenders import only contender.ts (the types) and shared helpers, never
 * this list: adding one is a module under contenders/ and one entry here.
 */
import type { ContenderEntry } from "./contender.js";

/** The contenders, in table order; `generateText` is the second ratio's reference. */
export const CONTENDERS = {
  plain: { heading: ["plain", "loop"], load: () => import("./contenders/plain.js") },
  hookwiseRun: { heading: ["hookwise", "run()"], load: () => import("./contenders/hookwise-run.js") },
  hookwiseStream: {
    heading: ["hookwise", "stream()"],
    load: () => import("./contenders/hookwise-stream.js"),
  },
  generateText: { heading: ["AI SDK", "generateText"], load: () => import("./contenders/generate-text.js") },
  streamText: { heading: ["AI SDK", "streamText"], load: () => import("./contenders/stream-text.js") },
  openaiAgents: { heading: ["OpenAI", "Agents"], load: () => import("./contenders/openai-agents.js") },
  langchain: { heading: ["LangChain", "createAgent"], load: () => import("./contenders/langchain.js") },
} satisfies Record<string, ContenderEntry>;

/** Contenders bench/scale measures besides the table's. */
export const EXTRA_CONTENDERS = {
  plainStream: {
    heading: ["plain loop", "over doStream"],
    load: () => import("./contenders/plain-stream.js"),
  },
  hookwiseStreamQuiet: {
    heading: ["hookwise", "stream(), hookEvents: false"],
    load: () => import("./contenders/hookwise-stream-quiet.js"),
  },
} satisfies Record<string, ContenderEntry>;

/** The table's contenders. */
export type ContenderName = keyof typeof CONTENDERS;
export const CONTENDER_NAMES = Object.keys(CONTENDERS) as ContenderName[];

/** Every contender a case may name. */
export const ANY_CONTENDERS: Record<AnyContenderName, ContenderEntry> = {
  ...CONTENDERS,
  ...EXTRA_CONTENDERS,
};
export type AnyContenderName = ContenderName | keyof typeof EXTRA_CONTENDERS;
export const ANY_CONTENDER_NAMES = Object.keys(ANY_CONTENDERS) as AnyContenderName[];
