/**
 * API keys never leave in an error. `createModel` registers every key it reads (with the
 * name of its environment variable) and wraps the model so that whatever a provider call
 * throws, or reports as an error part of a stream, has every registered key value replaced
 * by `[redacted NAME]` — in its message, stack, response body, parsed data, headers and
 * causes — before the loop, the store, a hook or the CLI sees it. Some providers quote the
 * request's `Authorization` header in their error body; this is what keeps it out of
 * output, `--json` results and stored sessions.
 */
import type { LanguageModel } from "./language-model.js";

const SECRETS = new Map<string, string>();

/**
 * Below this length a value is no provider's key (theirs run to dozens of characters), and
 * masking it would garble every message that happens to contain those letters.
 */
const SHORTEST_KEY = 8;

/** Remembers a key value to mask. */
export function registerSecret(value: string, name: string): void {
  if (value.length >= SHORTEST_KEY) SECRETS.set(value, name);
}

/** The registered key values (a streamed text holds back what could begin one). */
export function registeredSecrets(): Iterable<string> {
  return SECRETS.keys();
}

/** `text` with every registered key value replaced by `[redacted NAME]`. */
export function maskSecrets(text: string): string {
  if (SECRETS.size === 0) return text;
  let masked = text;
  // Longest first, so a key that contains another is masked whole.
  for (const [value, name] of [...SECRETS].sort((a, b) => b[0].length - a[0].length)) {
    if (masked.includes(value)) masked = masked.split(value).join(`[redacted ${name}]`);
  }
  return masked;
}

/** Masks, in place, every string reachable from `value` (errors, objects, lists); returns it. */
export function maskDeep<T>(value: T, seen = new WeakSet<object>(), depth = 0): T {
  if (SECRETS.size === 0) return value;
  if (typeof value === "string") return maskSecrets(value) as T;
  if (typeof value !== "object" || value === null || seen.has(value) || depth > 8) return value;
  seen.add(value);
  const target = value as Record<string, unknown>;
  const keys = new Set([
    ...Object.keys(target),
    ...(value instanceof Error ? ["message", "stack", "cause"] : []),
  ]);
  for (const key of keys) {
    const item = target[key];
    if (item === undefined || item === null) continue;
    const masked = maskDeep(item, seen, depth + 1);
    if (masked === item) continue;
    try {
      target[key] = masked;
    } catch {
      // A frozen object: nothing we can do in place.
    }
  }
  return value;
}

/** Whether a stream part is an error part. */
function isErrorPart(part: unknown): part is { type: "error"; error: unknown } {
  return typeof part === "object" && part !== null && (part as { type?: unknown }).type === "error";
}

/**
 * The model with its calls' errors masked: a proxy, so everything else about the model
 * (its identity for settings aside) reads through unchanged.
 */
export function withMaskedErrors<M extends LanguageModel>(model: M): M {
  const mask = (error: unknown): never => {
    throw maskDeep(error);
  };
  return new Proxy(model, {
    get(target, property, receiver) {
      if (property === "doGenerate") {
        return (options: never) => Promise.resolve(target.doGenerate(options)).catch(mask);
      }
      if (property === "doStream") {
        return async (options: never) => {
          const result = (await Promise.resolve(target.doStream(options)).catch(mask)) as {
            stream: ReadableStream<unknown>;
          };
          const stream = result.stream.pipeThrough(
            new TransformStream<unknown, unknown>({
              transform(part, controller) {
                controller.enqueue(isErrorPart(part) ? maskDeep(part) : part);
              },
            }),
          );
          return { ...result, stream };
        };
      }
      const found = Reflect.get(target, property, receiver);
      return typeof found === "function" ? found.bind(target) : found;
    },
  });
}
