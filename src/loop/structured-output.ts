/**
 * Structured final output: an agent given an `output` schema must end its run with an answer
 * that parses as JSON and matches the schema. The provider is asked for JSON (its response
 * format); an answer that misses is sent back once per retry with what was wrong, and the
 * run fails when the retries are used up. `result.output` holds the validated value.
 */
import { HookwiseError } from "../errors/hookwise-error.js";
import type { ModelMessage } from "../events/payloads.js";
import { type NormalizedSchema, normalizeSchema, type Validation } from "../tools/input-schema.js";

export interface OutputSpec {
  readonly schema: NormalizedSchema;
  /** Answers that missed the schema which are sent back for another try. */
  readonly retries: number;
  /** What the provider is asked for. */
  readonly responseFormat: { type: "json"; schema: Record<string, unknown> };
}

/** The final answer did not match the agent's `output` schema, after every retry. */
export class OutputValidationError extends HookwiseError {
  override readonly name = "OutputValidationError";
  /** The last answer's text. */
  readonly text: string;

  constructor(message: string, text: string) {
    super(message);
    this.text = text;
  }

  /** Whether `error` is one (from any copy of hookwise in the process). */
  static override isInstance(error: unknown): error is OutputValidationError {
    return HookwiseError.isInstance(error) && error.name === "OutputValidationError";
  }
}

export function resolveOutput(schema: unknown, retries: number | undefined): OutputSpec | undefined {
  if (schema === undefined) return undefined;
  const normalized = normalizeSchema(schema, "createAgent output");
  const count = retries ?? 2;
  if (!Number.isInteger(count) || count < 0) {
    throw new TypeError(`createAgent: outputRetries must be an integer ≥ 0 (got ${String(retries)})`);
  }
  return {
    schema: normalized,
    retries: count,
    responseFormat: { type: "json", schema: normalized.jsonSchema },
  };
}

/** The answer's JSON: the whole text, or the one fenced block it holds (```json … ```). */
function parseAnswer(text: string): Validation {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(trimmed);
  const body = fenced ? fenced[1]! : trimmed;
  if (body === "") return { ok: false, message: "the answer is empty; expected a JSON value" };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    return { ok: false, message: `the answer is not JSON (${(error as Error).message})` };
  }
}

/** The final answer checked against the schema: its value, or what is wrong with it. */
export async function checkAnswer(spec: OutputSpec, text: string): Promise<Validation> {
  const parsed = parseAnswer(text);
  if (!parsed.ok) return parsed;
  return spec.schema.check(parsed.value);
}

/** What the next request carries after a missed answer (not kept in the transcript). */
export function outputFeedback(text: string, problem: string): ModelMessage[] {
  return [
    { role: "assistant", content: text },
    {
      role: "user",
      content: `Your answer does not match the required output: ${problem}. Answer again with only a JSON value that matches the output schema.`,
    },
  ];
}
