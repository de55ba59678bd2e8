/**
 * The action registry. Adding a kind = one new module file plus its import and
 * its entry in MODULES below; no other action changes. Aliases (other accepted spellings) map to
 * the same module.
 */
import type { EventName, HookKind } from "../../events/catalogue.js";
import type { ActionServices } from "../build/evaluation.js";
import { type KindOutputs, parseKind } from "../schema/kind-outputs.js";
import { formatPath } from "../source/config-error.js";
import type { ActionModule, CompiledAction } from "./action-module.js";
import { chain } from "./chain.js";
import { compactContext } from "./compact-context.js";
import { gate } from "./gate.js";
import { callToolInject } from "./injection/call-tool-inject.js";
import { injectMessage } from "./injection/inject-message.js";
import { injectToolCall } from "./injection/inject-tool-call.js";
import { log } from "./notes/log.js";
import { lspDiagnose } from "./notes/lsp-diagnose.js";
import { notify } from "./notes/notify.js";
import { shell } from "./shell/shell.js";
import { callTool } from "./tools/call-tool.js";
import { pipe } from "./tools/pipe.js";
import { transformParams } from "./tools/transform-params.js";
import { transformResult } from "./tools/transform-result.js";

type Path = readonly (string | number)[];

const MODULES: readonly ActionModule[] = [
  injectMessage,
  log,
  gate,
  transformParams,
  transformResult,
  chain,
  notify,
  injectToolCall,
  compactContext,
  callTool,
  callToolInject,
  pipe,
  shell,
  lspDiagnose,
];

/** Every action module by type and by alias. */
export const ACTIONS: ReadonlyMap<string, ActionModule> = new Map(
  MODULES.flatMap((module) =>
    [module.type, ...(module.aliases ?? [])].map((name) => [name, module] as const),
  ),
);

/** The canonical action types, in documentation order (aliases excluded). */
export function actionTypes(): string[] {
  return MODULES.map((module) => module.type);
}

/**
 * Looks the action up and validates it against its module's schema (or finds its output among
 * `outputs`, what validation kept); throws a plain Error.
 */
function resolve(
  value: unknown,
  path: Path,
  outputs?: KindOutputs,
): { module: ActionModule; config: { type: string } } {
  const type = (value as { type?: unknown } | null)?.type;
  const module = typeof type === "string" ? ACTIONS.get(type) : undefined;
  if (!module) {
    const what = typeof type === "string" ? `unknown action type "${type}"` : "an action needs a type";
    throw new Error(`${formatPath(path)}: ${what}; valid types: ${actionTypes().join(", ")}`);
  }
  const parsed = parseKind("action", module, value, outputs);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${formatPath([...path, ...(issue.path as (string | number)[])])}: ${issue.message}`,
    );
    throw new Error(`invalid ${module.type} action: ${issues.join("; ")}`);
  }
  return { module, config: parsed.data };
}

function childrenOf(module: ActionModule, config: { type: string }, path: Path) {
  return (module.children?.(config) ?? []).map((child) => ({
    value: child.value,
    path: [...path, ...child.path],
  }));
}

/** The hook kind an action compiles to (chain: from its children; may throw on a mix). */
export function actionKind(value: unknown, path: Path = [], outputs?: KindOutputs): HookKind {
  const { module, config } = resolve(value, path, outputs);
  const childKinds = childrenOf(module, config, path).map((child) =>
    actionKind(child.value, child.path, outputs),
  );
  return module.kind(config, childKinds);
}

/** The events an action can act on: its own, intersected with its children's. */
export function actionEvents(value: unknown, path: Path = []): readonly EventName[] | "any" {
  const { module, config } = resolve(value, path);
  let events = module.events;
  for (const child of childrenOf(module, config, path)) {
    const inner = actionEvents(child.value, child.path);
    if (inner === "any") continue;
    events = events === "any" ? inner : events.filter((event) => inner.includes(event));
  }
  return events;
}

/**
 * Validates an action against the registry and compiles it, nested actions included.
 * Throws a plain Error naming `path` for an unknown type, an invalid action, or a chain
 * mixing decide and transform children; the loader reports user-facing errors first.
 * `outputs`: the schema outputs validation kept with a cached config (see `kindOutputs`).
 */
export function compileAction(
  value: unknown,
  services: ActionServices,
  path: Path = [],
  outputs?: KindOutputs,
): CompiledAction {
  const { module, config } = resolve(value, path, outputs);
  const kind = actionKind(value, path, outputs);
  const run = module.compile(config, services, (child, childPath) =>
    compileAction(child, services, [...path, ...childPath], outputs),
  );
  return { run, kind, type: module.type };
}

export type { ActionModule, ActionRun, CompileChildAction, CompiledAction } from "./action-module.js";
export { defineAction } from "./action-module.js";
export { HOOK_FAILURES, type HookFailure } from "./chain.js";
