/**
 * API keys never leave in an error. `createModel` registers every key it reads (with the
 * name of its environment variable, secrets/secret-registry.ts) and wraps the model so that
 * whatever a provider call throws, or reports as an error part of a stream, has every
 * registered secret replaced by `[redacted NAME]` — in its message, stack, response body,
 * parsed data, headers and causes — before the loop, the store, a hook or the CLI sees it.
 * Some providers quote the request's `Authorization` header in their error body; this is
 * what keeps it out of output, `--json` results and stored sessions. (What a model answers
 * is masked where the loop reads it: models/mask-turn.ts.)
 */
import { maskSecretsIn } from "../secrets/secret-registry.js";
import type { LanguageModel } from "./language-model.js";

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
    throw maskSecretsIn(error);
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
                controller.enqueue(isErrorPart(part) ? maskSecretsIn(part) : part);
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
