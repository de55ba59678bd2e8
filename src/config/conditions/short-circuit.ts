/**
 * Evaluates predicates in order and stops at the first one that returns `stopOn`, the
 * shared core of `all_of` (stops on false) and `any_of` (stops on true). Stays synchronous
 * while every predicate is; switches to awaiting at the first promise.
 */
import type { Evaluation } from "../build/evaluation.js";
import type { Predicate } from "./condition-module.js";

/** True when some predicate returned `stopOn` (later ones did not run). */
export function shortCircuit(
  predicates: readonly Predicate[],
  evaluation: Evaluation,
  stopOn: boolean,
): boolean | Promise<boolean> {
  for (let index = 0; index < predicates.length; index++) {
    const result = predicates[index]!(evaluation);
    if (typeof result !== "boolean") return finish(result, predicates, index, evaluation, stopOn);
    if (result === stopOn) return true;
  }
  return false;
}

async function finish(
  pending: Promise<boolean>,
  predicates: readonly Predicate[],
  index: number,
  evaluation: Evaluation,
  stopOn: boolean,
): Promise<boolean> {
  if ((await pending) === stopOn) return true;
  for (let next = index + 1; next < predicates.length; next++) {
    if ((await predicates[next]!(evaluation)) === stopOn) return true;
  }
  return false;
}
