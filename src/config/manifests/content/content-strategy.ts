/**
 * A content strategy of synthetic tool-call injection: where the injected
 * result comes from. Each strategy is its own module, listed once in `index.ts`; adding one
 * touches no other file.
 */
import type { z } from "zod";
import type { ActionServices, Evaluation } from "../../build/evaluation.js";

export interface ContentRequest {
  /** The function name the injected call carries (see `injected-tool-name.ts`). */
  toolName: string;
  arguments: Readonly<Record<string, unknown>>;
  evaluation: Evaluation;
  services: ActionServices;
}

export interface ContentStrategy<C extends { strategy: string } = any> {
  readonly strategy: string;
  readonly description: string;
  readonly schema: z.ZodType<C>;
  /**
   * The result to inject (a string, or JSON). `undefined` injects nothing. A throw is
   * logged and the injection skipped; the run goes on.
   */
  produce(config: C, request: ContentRequest): unknown;
}

export function defineContentStrategy<C extends { strategy: string }>(
  strategy: ContentStrategy<C>,
): ContentStrategy<C> {
  return strategy;
}
