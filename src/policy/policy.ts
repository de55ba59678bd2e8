/**
 * Declarative tool policies: `policy.deny / allow / askUser`.
 * Evaluation: exact name before glob before `*`; at each level deny before ask before
 * allow; first match wins within a level; a predicate that throws counts as matched
 * (fail closed). No match → allow. `compilePolicies` turns a list into one decide hook.
 */
import { picomatch } from "../deps/picomatch.js";
import type { EventPayload } from "../events/payloads.js";
import type { HookDefinition } from "../hooks/define-hook.js";
import { flow } from "../hooks/flow.js";
import { toolGlob } from "../hooks/tool-glob.js";

export type PolicyDecision = "deny" | "allow" | "ask_user";

export interface ToolCallForApproval {
  toolName: string;
  qualifiedName: string;
  toolCallId: string;
  args: unknown;
}

export interface Policy {
  readonly decision: PolicyDecision;
  /** An exact tool name (qualified or function), a glob, or "*". */
  readonly tool: string;
  readonly when?: (args: any) => boolean | Promise<boolean>;
  /** `ask_user`: decides the call (true approves). Without one, the agent's approval channel asks. */
  readonly handler?: (call: ToolCallForApproval) => boolean | Promise<boolean>;
  readonly reason?: string;
}

type PolicyOptions = { when?: Policy["when"]; reason?: string };

export const policy = {
  deny: (tool: string, options: PolicyOptions = {}): Policy => ({ decision: "deny", tool, ...options }),
  allow: (tool: string, options: PolicyOptions = {}): Policy => ({ decision: "allow", tool, ...options }),
  askUser: (tool: string, options: PolicyOptions & { handler?: Policy["handler"] } = {}): Policy => ({
    decision: "ask_user",
    tool,
    ...options,
  }),
};

const LEVEL_ORDER: Record<PolicyDecision, number> = { deny: 0, ask_user: 1, allow: 2 };

/**
 * A name of letters, digits and `_` `.` `:` `-` only: no glob syntax in it (picomatch's scan
 * says the same), so most policies' tools are told apart without loading picomatch.
 */
const PLAIN_NAME = /^[\w.:-]*$/;

/**
 * Such a name with one `*` or more in it (`mcp__github__*`, `fs.*`): a glob, whose matches all
 * start with the text before its first `*`.
 */
const STAR_GLOB = /^[\w.:-]*\*[\w.:*-]*$/;

export function specificity(tool: string): number {
  if (tool === "*") return 2;
  if (PLAIN_NAME.test(tool)) return 0;
  if (STAR_GLOB.test(tool)) return 1;
  return picomatch.scan(tool).isGlob ? 1 : 0;
}

/**
 * The text every name a glob matches starts with: before the first `*` of a STAR_GLOB, else
 * "" (nothing known). A name without it is no match, told without compiling the glob.
 */
export function globHead(tool: string): string {
  return STAR_GLOB.test(tool) ? tool.slice(0, tool.indexOf("*")) : "";
}

interface CompiledPolicy {
  policy: Policy;
  test(names: readonly string[]): boolean;
}

/** Orders policies by (specificity, decision) while keeping list order within a level. */
export function orderPolicies(policies: readonly Policy[]): Policy[] {
  // Each tool pattern scanned once, not at every comparison of the sort.
  return policies
    .map((item, index) => ({ item, index, specificity: specificity(item.tool) }))
    .sort(
      (a, b) =>
        a.specificity - b.specificity ||
        LEVEL_ORDER[a.item.decision] - LEVEL_ORDER[b.item.decision] ||
        a.index - b.index,
    )
    .map(({ item }) => item);
}

function compile(item: Policy): CompiledPolicy {
  if (item.tool === "*") return { policy: item, test: () => true };
  if (specificity(item.tool) === 1) {
    // A `*` glob is compiled (picomatch loaded) when a name could match: a call of another
    // tool needs neither. Any other glob at once.
    const head = globHead(item.tool);
    let matcher = head === "" ? toolGlob(item.tool) : undefined;
    const matches = (name: string) => {
      matcher ??= toolGlob(item.tool);
      return matcher(name);
    };
    return { policy: item, test: (names) => names.some((name) => name.startsWith(head) && matches(name)) };
  }
  return { policy: item, test: (names) => names.includes(item.tool) };
}

/**
 * Whether the policies deny a tool whatever its arguments: every policy that could decide it
 * before an unconditional one is a deny, and that one (no `when`) is a deny too. Such a tool
 * is not offered to the model at all; a call to it anyway is still denied.
 */
export function deniedOutright(policies: readonly Policy[], names: readonly string[]): boolean {
  for (const item of orderPolicies(policies)) {
    if (!compile(item).test(names)) continue;
    if (item.when === undefined) return item.decision === "deny";
    // A conditional deny denies or passes the call on; any other conditional may let it through.
    if (item.decision !== "deny") return false;
  }
  return false;
}

type Match = boolean | "error";

/** Matched, not matched, or the predicate threw (decided per policy kind: fail closed); a promise only for a `when` that answered one. */
function predicateMatches(item: Policy, args: unknown): Match | Promise<Match> {
  if (!item.when) return true;
  let answer: boolean | Promise<boolean>;
  try {
    answer = item.when(args);
  } catch {
    return "error";
  }
  if (isThenable(answer)) return Promise.resolve(answer).then(Boolean, () => "error" as const);
  return Boolean(answer);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** What a matched predicate decides: its policy, or a deny when an allow's condition failed. */
function decided(entry: CompiledPolicy, matched: Match): Policy | undefined {
  if (matched === true) return entry.policy;
  // Fail closed: a throwing predicate makes a deny or ask apply, and never grants an allow.
  if (matched === "error") {
    if (entry.policy.decision !== "allow") return entry.policy;
    return {
      decision: "deny",
      tool: entry.policy.tool,
      reason: `the condition of allow "${entry.policy.tool}" failed to evaluate (failed closed)`,
    };
  }
  return undefined;
}

/**
 * The policy that decides this call, or `undefined` (allow), from policy `from` on.
 * Synchronous while every `when` answers synchronously (a config's CEL ones do): a promise
 * only from the first `when` that answers one.
 */
function firstDeciding(
  compiled: readonly CompiledPolicy[],
  names: readonly string[],
  args: unknown,
  from = 0,
): Policy | undefined | Promise<Policy | undefined> {
  for (let index = from; index < compiled.length; index++) {
    const entry = compiled[index]!;
    if (!entry.test(names)) continue;
    const matched = predicateMatches(entry.policy, args);
    if (typeof matched === "object")
      return matched.then(
        (answer) => decided(entry, answer) ?? firstDeciding(compiled, names, args, index + 1),
      );
    const policy = decided(entry, matched);
    if (policy !== undefined) return policy;
  }
  return undefined;
}

/** The policy that decides this call, or `undefined` (allow). */
export async function evaluatePolicies(
  compiled: readonly CompiledPolicy[],
  names: readonly string[],
  args: unknown,
): Promise<Policy | undefined> {
  return firstDeciding(compiled, names, args);
}

/**
 * The policy that decides a call of a tool known by `names`, or undefined when none matches
 * (the call is allowed by default). A harness hook answers "allow" only for a matching allow:
 * it lets the harness skip its own prompt, which no policy's silence should do.
 */
export function decidingPolicy(
  policies: readonly Policy[],
  names: readonly string[],
  args: unknown,
): Policy | undefined | Promise<Policy | undefined> {
  let compiled = compiledLists.get(policies);
  if (compiled === undefined) {
    compiled = orderPolicies(policies).map(compile);
    compiledLists.set(policies, compiled);
  }
  return firstDeciding(compiled, names, args);
}

/**
 * The last call a policy hook decided (its payload) and the policy that decided it (null: none
 * matched). One slot, not a map of every call: the dispatcher reads it back right after its
 * dispatch, and a slot another call took since only costs it asking the policies again.
 */
let lastCall: object | undefined;
let lastDecision: Policy | null = null;

/**
 * The policy that decided the call with this `tool_call` payload, as the policy hook found it
 * (null: no policy matched, so the call was allowed by default); undefined when the policy
 * hook did not see this payload (it did not run, the payload is another object, or a policy
 * hook has decided another call since).
 */
export function policyDecisionOf(payload: object): Policy | null | undefined {
  return payload === lastCall ? lastDecision : undefined;
}

/** Each list's policies compiled once (a list is read-only once given). */
const compiledLists = new WeakMap<readonly Policy[], readonly CompiledPolicy[]>();

function denyReason(item: Policy, toolName: string): string {
  return item.reason ?? `tool "${toolName}" is denied by policy (${item.decision} "${item.tool}")`;
}

/** The policy hook's answer for the policy that decided a call (undefined: none matched). */
function answer(event: EventPayload<"tool_call">, decided: Policy | undefined) {
  lastCall = event;
  lastDecision = decided ?? null;
  if (!decided || decided.decision === "allow") return flow.allow();
  if (decided.decision === "deny") return flow.deny(denyReason(decided, event.qualifiedName));
  // The handler (a human, often) runs in the approval step, not under this hook's timeout.
  return flow.ask({
    reason: decided.reason ?? `policy ask_user "${decided.tool}"`,
    ...(decided.handler ? { handler: decided.handler } : {}),
  });
}

export function compilePolicies(
  policies: readonly Policy[],
  name = "policy",
): HookDefinition<"tool_call", "decide"> {
  for (const item of policies) {
    if (!["deny", "allow", "ask_user"].includes(item.decision)) {
      throw new TypeError(
        `policy for "${item.tool}": unknown decision "${item.decision}" (deny, allow or ask_user)`,
      );
    }
    if (typeof item.tool !== "string" || item.tool === "")
      throw new TypeError("a policy needs a tool name or pattern");
  }
  const compiled = orderPolicies(policies).map(compile);
  return {
    name,
    on: "tool_call",
    kind: "decide",
    // Synchronous while every `when` is: a promise only when one answers with a promise.
    handler(event) {
      const names = [event.qualifiedName, event.toolName];
      const found = firstDeciding(compiled, names, event.args);
      if (isThenable(found)) return Promise.resolve(found).then((policy) => answer(event, policy));
      return answer(event, found);
    },
  };
}
