/**
 * The schema outputs of every condition and action of a validated config's hooks, nested ones
 * included: what compiling them (and checking their references) would parse, kept with the
 * config in the validation cache so that a config served from it compiles without its schemas.
 */
import { ACTIONS } from "../actions/index.js";
import { CONDITIONS } from "../conditions/index.js";
import { type KindFamily, type KindOutputs, keepKindOutput } from "../schema/kind-outputs.js";
import type { ValidatedConfig } from "./validate-config.js";

interface KindModule {
  readonly type: string;
  readonly schema: { safeParse(value: unknown): { success: boolean; data?: unknown } };
  children?(config: any): { value: unknown }[];
}

function keep(
  outputs: Record<string, string>,
  family: KindFamily,
  registry: ReadonlyMap<string, KindModule>,
  value: unknown,
): void {
  const type = (value as { type?: unknown } | null)?.type;
  const module = typeof type === "string" ? registry.get(type) : undefined;
  if (!module) return;
  const parsed = module.schema.safeParse(value);
  if (!parsed.success) return;
  keepKindOutput(outputs, family, module.type, value, parsed.data);
  for (const child of module.children?.(parsed.data) ?? []) keep(outputs, family, registry, child.value);
}

export function kindOutputsOf(validated: ValidatedConfig): KindOutputs {
  const outputs: Record<string, string> = {};
  for (const entry of [...validated.appHooks, ...[...validated.agentHooks.values()].flat()]) {
    keep(outputs, "condition", CONDITIONS, entry.condition);
    keep(outputs, "action", ACTIONS, entry.action);
  }
  return outputs;
}
