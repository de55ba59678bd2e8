import { HookwiseError } from "../errors/hookwise-error.js";

/** A stored run record that is not one hookwise wrote (altered by hand, or by another program). */
export class RunRecordError extends HookwiseError {
  override readonly name = "RunRecordError";
  /** The record's key in the store. */
  readonly key: string;
  /** Where the store keeps it (a database file, a Redis URL). */
  readonly location: string;

  constructor(options: { key: string; location: string; problem: string }) {
    super(
      `The run record "${options.key}" in ${options.location} is not one hookwise wrote (${options.problem}): delete that key from the store to read the session's other runs, or record the session again`,
    );
    this.key = options.key;
    this.location = options.location;
  }

  static override isInstance(error: unknown): error is RunRecordError {
    return HookwiseError.isInstance(error) && error.name === "RunRecordError";
  }
}
