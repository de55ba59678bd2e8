import { HookwiseError } from "../../errors/hookwise-error.js";

/** A filesystem tool was given a path outside its root (`..`, an absolute path, a symlink). */
export class PathEscapeError extends HookwiseError {
  override readonly name = "PathEscapeError";
  readonly path: string;
  readonly root: string;
  readonly via: "parent" | "absolute" | "symlink" | "invalid";

  constructor(options: { path: string; root: string; via: PathEscapeError["via"] }) {
    const why = {
      parent: "it climbs out of the root with ..",
      absolute: "it is an absolute path outside the root",
      symlink: "a symbolic link on the way leads outside the root",
      invalid: "it is not a valid path",
    }[options.via];
    super(
      `path "${options.path}" is refused: ${why}. Paths are relative to the root ${options.root} and stay inside it.`,
    );
    this.path = options.path;
    this.root = options.root;
    this.via = options.via;
  }

  static override isInstance(error: unknown): error is PathEscapeError {
    return HookwiseError.isInstance(error) && error.name === "PathEscapeError";
  }
}
