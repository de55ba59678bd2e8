/**
 * Whether a model reads the prompt it is sent. A model that answers from something else (a
 * replay answers each attempt with the answer recorded for it) is marked so, and the loop
 * sends it an empty prompt instead of building one from the whole transcript at every step:
 * replaying a session of thousands of runs then costs no copy of its history per step.
 */
const READS_NO_PROMPT = Symbol.for("hookwise.readsNoPrompt");

/** Marks `model` as answering without reading its prompt; returns it. */
export function markReadsNoPrompt<T extends object>(model: T): T {
  Object.defineProperty(model, READS_NO_PROMPT, { value: true });
  return model;
}

/** Whether `model` reads its prompt (every model does unless marked otherwise). */
export function readsPrompt(model: unknown): boolean {
  return !(typeof model === "object" && model !== null && READS_NO_PROMPT in model);
}
