/**
 * A bound on what one evaluation of an expression may cost. CEL has no loops, but its
 * comprehensions (`all`, `exists`, `exists_one`, `map`, `filter`) nest: one inside another
 * over the same list, `args.items.all(x, args.items.exists(y, y == x))`, costs the square
 * of a length the model chooses — 50,000 items are 2.5 billion steps, and an evaluation
 * cannot be interrupted, so a hook's timeout never fires while the process hangs. The CEL
 * engine has no cost limit of its own, so hookwise counts.
 *
 * Each comprehension's step (its predicate or transform) is guarded, in the expression's
 * text, by a gate it must pass first, `(hookwiseGate() ? (step) : hookwiseNever())`: an
 * evaluation may take `MAX_STEPS` steps, its values' items counted, and may run `MAX_MS`
 * from its start, converting its values included (a step that is itself costly, a scan of a
 * long text in each of many steps, is caught by the clock).
 * Past either, every gate closes before its step runs: a closed `all` answers false and a
 * closed `exists` true, which ends each at once, and the other comprehensions fail — so every
 * comprehension under way ends at its next item, and the evaluation then fails with the
 * budget's error whatever it answered (a guard that fails, fails closed). No answer stands
 * after the budget is spent: what decided before did so on whole steps. Positions in errors
 * still point into what was written.
 */
import { type AstNode, forEachNode, isNode } from "./cel-ast.js";

/** The gate each step passes first, and the never-taken branch after it, in the rewritten text. */
export const GATE_FUNCTION = "hookwiseGate";
export const NEVER_FUNCTION = "hookwiseNever";
/** Charges what a `map` step made (see `passSized`). */
export const SIZED_FUNCTION = "hookwiseSized";
const OPEN = `(${GATE_FUNCTION}() ? (`;
/** Before a `map` transform: the gate, then its result charged. */
const OPEN_SIZED = `(${GATE_FUNCTION}() ? ${SIZED_FUNCTION}(`;
/**
 * After each step: what a closed gate answers instead. An `all` answers false and an `exists`
 * true, which ends them at once (the evaluation fails after, whatever it answers: see
 * `budgetSpent`); the others fail their comprehension, which ends it.
 */
const CLOSES: Readonly<Record<string, string>> = {
  all: ") : false)",
  exists: ") : true)",
  exists_one: `) : ${NEVER_FUNCTION}())`,
  map: `) : ${NEVER_FUNCTION}())`,
  filter: `) : ${NEVER_FUNCTION}())`,
};
export const MAX_STEPS = 1_000_000;
export const MAX_MS = 1000;

/** The error of an evaluation past the budget (it fails with this message). */
export class StepBudgetError extends Error {}

/** The steps of the evaluation under way (evaluations are synchronous: one at a time). */
let steps = 0;
/** When the evaluation under way must end (`performance.now()`); 0: its clock starts at its first look. */
let deadline = 0;
/** Once the budget is spent: the error the evaluation fails with. */
let spent: StepBudgetError | undefined;

function overBudget(): StepBudgetError {
  return new StepBudgetError(
    `evaluation stopped after ${MAX_STEPS.toLocaleString("en-US")} comprehension steps (all, exists, exists_one, map, filter; each item a comprehension visits, each item of what a map() step makes and each item of the values it reads is one): a comprehension inside another over the same list costs the square of its length; check size() first, or bound the list in the tool's input schema (maxItems)`,
  );
}

/**
 * Before each evaluation: a new budget, and its clock started — the values' conversion
 * (`chargeValue`) and every operation after it run within the same `MAX_MS`. An expression
 * with no comprehension (`gated` false) has no step for the clock to stop; only its values'
 * conversion is timed, from the first time it reads the clock (after its first 1,024 items):
 * the evaluations of most guards then read no clock at all.
 */
export function resetSteps(gated = true): void {
  steps = 0;
  deadline = gated ? performance.now() + MAX_MS : 0;
  spent = undefined;
}

/** Whether the clock is past the deadline (the clock started now when it had not yet). */
function pastDeadline(): boolean {
  const now = performance.now();
  if (deadline === 0) {
    deadline = now + MAX_MS;
    return false;
  }
  return now > deadline;
}

/** Past the clock: the evaluation's error. */
function overTime(): StepBudgetError {
  return new StepBudgetError(
    `evaluation stopped after ${MAX_MS} ms (converting its values and in its comprehensions: all, exists, exists_one, map, filter): each step scans data the model chose; check size() first`,
  );
}

/**
 * Converting a variable's value for the engine: each list or map converted is charged its
 * items (a value of a million keys spends the budget before a comprehension visits them),
 * and the clock is read every so often. Throws the budget's error once it is spent.
 */
export function chargeValue(items: number): void {
  if (spent) throw spent;
  const before = steps;
  steps += items;
  if (steps > MAX_STEPS) spent = overBudget();
  else if (before >>> 10 !== steps >>> 10 && pastDeadline()) spent = overTime();
  if (spent) throw spent;
}

/**
 * The gate: true, or false once the budget is spent. It never throws: a quantifier keeps an
 * item's error and goes on to the next item, and a throw at each item of a long list costs
 * ~2 µs (seconds over the million items of a few MB of arguments).
 */
export function passGate(): boolean {
  if (spent) return false;
  steps++;
  if (steps > MAX_STEPS) {
    spent = overBudget();
    return false;
  }
  // The clock at every step, from the first: a step may scan a list the model sent (100 ms
  // for a million items), and steps between two looks, or before the first, would each run
  // past the deadline. A look costs ~50 ns: at most ~50 ms over the 1,000,000 steps.
  if (pastDeadline()) {
    spent = overTime();
    return false;
  }
  return true;
}

/**
 * A `map` step's result, charged its size: each item of a list or a map at any depth is one
 * step, and a text one per 64 characters. A step is cheap to take but may hand on the whole
 * list the model sent (`args.p.map(x, args.p)`, or wrapped, `[args.p]`): n steps that make
 * n × n items, which one `==` or `in` on the result then compares outside any gate. Charged,
 * they spend the budget as the items made. The count stops where the budget ends, so
 * counting costs no more than the budget.
 */
export function passSized(value: unknown): unknown {
  if (spent) return value;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") steps += item.length >>> 6;
    else if (Array.isArray(item)) {
      steps += item.length;
      for (const inner of item) if (typeof inner === "object" && inner !== null) pending.push(inner);
    } else if (item instanceof Map) {
      steps += item.size;
      for (const inner of item.values()) if (typeof inner === "object" && inner !== null) pending.push(inner);
    } else if (item !== null && typeof item === "object" && !(item instanceof Uint8Array)) {
      const values = Object.values(item);
      steps += values.length;
      for (const inner of values) if (typeof inner === "object" && inner !== null) pending.push(inner);
    }
    if (steps > MAX_STEPS) {
      // The next gate closes (the evaluation fails after, see `budgetSpent`).
      spent = overBudget();
      break;
    }
  }
  return value;
}

/** The branch of a closed gate of `exists_one`, `map` and `filter`: their comprehension fails. */
export function never(): unknown {
  throw spent ?? new StepBudgetError("a comprehension step ran without its gate");
}

/**
 * Once the budget is spent: the error the evaluation fails with, whatever it answered or
 * threw (the answers of closed gates decide nothing, and `|| true` does not absorb it).
 */
export function budgetSpent(): StepBudgetError | undefined {
  return spent;
}

/** Where one wrapped step starts and ends in the text. */
interface Step {
  start: number;
  end: number;
  /** Where the engine's node of the step starts (errors of the gated step point there). */
  node: number;
  /** The text before the step (`OPEN`, `OPEN_SIZED`, …) and after it (`CLOSES`, …). */
  open: string;
  close: string;
}

/**
 * The comprehension steps of the AST: the argument after the iteration variable of each
 * macro call, as written. The engine's node of a step leaves out the parentheses around
 * its first or last operand (`!(x > 5)` ends at `5`), so a step is placed by the commas
 * around it instead: from the comma after the variable to the comma or the call's `)` after it.
 */
function comprehensionSteps(root: unknown, text: string): Step[] {
  const found: Step[] = [];
  forEachNode(root, (node) => {
    const args = node.args;
    if (node.op !== "rcall" || !Array.isArray(args) || !Object.hasOwn(CLOSES, args[0] as string)) return;
    const list = args[2] as unknown[];
    const variable = list[0];
    const step = list[1];
    if (!Array.isArray(list) || !(list.length === 2 || list.length === 3) || !isNode(variable)) return;
    if (variable.op !== "id") return;
    const name = args[0] as string;
    const close = CLOSES[name]!;
    // A map's transform is charged what it makes: the step itself (map(x, t)), or the
    // transform after the filter (map(x, f, t)), which runs only once its filter's gate passed.
    const sized = name === "map" && list.length === 2;
    found.push({ ...placed(text, variable, step, node), open: sized ? OPEN_SIZED : OPEN, close });
    if (name === "map" && list.length === 3 && isNode(step))
      found.push({ ...placed(text, step, list[2], node), open: `${SIZED_FUNCTION}(`, close: ")" });
  });
  return found;
}

/** Where the step after `variable` in `call` starts and ends in `text`. */
function placed(text: string, variable: AstNode, step: unknown, call: AstNode): Omit<Step, "open" | "close"> {
  const { start, end } = (step ?? {}) as AstNode;
  const close = (call.end ?? 0) - 1; // the call's `)`
  if (
    typeof variable.end !== "number" ||
    typeof start !== "number" ||
    typeof end !== "number" ||
    text[close] !== ")"
  )
    throw new Error(unplaced);
  const comma = past(text, variable.end, close);
  const after = past(text, end, close);
  if (text[comma] !== "," || !(text[after] === "," || after === close) || after < comma)
    throw new Error(unplaced);
  return { start: comma + 1, end: after, node: start };
}

const unplaced = "a comprehension's step could not be placed in the expression";

/**
 * The offset of the first character from `from` on that is not blank, in a `//` comment or a
 * `)` (the closing parentheses a node leaves out), stopping at `close`.
 */
function past(text: string, from: number, close: number): number {
  let at = from;
  while (at < close) {
    if (text.startsWith("//", at)) {
      const newline = text.indexOf("\n", at);
      at = newline === -1 ? close : newline + 1;
    } else if (" \t\n\r)".includes(text[at]!)) at++;
    else break;
  }
  return at;
}

/** The text with every comprehension step gated, and where each of its offsets was before. */
export interface CountedText {
  text: string;
  /** An offset in `text` as the offset in the text before (errors point there). */
  before(offset: number): number;
  /** How many steps are gated (0: the text is unchanged). */
  count: number;
}

/** Gates each comprehension step of `root` (parsed from `text`). */
export function countSteps(root: unknown, text: string): CountedText {
  const steps = comprehensionSteps(root, text);
  if (steps.length === 0) return { text, before: (offset) => offset, count: 0 };
  // Each insertion: at which offset of the text, and what.
  const inserts: { at: number; what: string; origin: number; rank: number }[] = [];
  for (const step of steps) {
    inserts.push({ at: step.start, what: step.open, origin: step.node, rank: 1 });
    inserts.push({ at: step.end, what: step.close, origin: step.end, rank: 0 });
  }
  // By offset; at one offset, a step's end before the next one's start.
  inserts.sort((a, b) => a.at - b.at || a.rank - b.rank);
  let out = "";
  const map: number[] = [];
  let from = 0;
  for (const { at, what, origin } of inserts) {
    for (let index = from; index < at; index++) map.push(index);
    out += text.slice(from, at);
    for (let index = 0; index < what.length; index++) map.push(origin);
    out += what;
    from = at;
  }
  for (let index = from; index <= text.length; index++) map.push(index);
  out += text.slice(from);
  return { text: out, before: (offset) => map[offset] ?? text.length, count: steps.length };
}
