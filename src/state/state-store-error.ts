import { HookwiseError } from "../errors/hookwise-error.js";

/** A store that cannot be created or opened: an unknown kind, or a database it cannot read. */
export class StateStoreError extends HookwiseError {
  override readonly name = "StateStoreError";
  /** The store kind asked for. */
  readonly kind: string;
  /** The database file, for file-backed stores. */
  readonly path: string | undefined;

  constructor(options: { kind: string; path?: string; message: string; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.kind = options.kind;
    this.path = options.path;
  }

  /** Whether `error` is one (from any copy of hookwise in the process). */
  static override isInstance(error: unknown): error is StateStoreError {
    return HookwiseError.isInstance(error) && error.name === "StateStoreError";
  }
}
