/**
 * `${VAR}` / `${VAR:-default}` in toolset settings, read from the environment when the
 * toolset starts, so tokens stay out of config files. An unset (or empty) variable without
 * a default is an EnvVariableError naming it and where it was written. Every value read
 * from the environment here is a secret from then on (`[redacted VAR]` wherever it comes
 * back: a tool's result or error, the CLI's output, the store); a default written in the
 * config is not.
 */
import { HookwiseError } from "../errors/hookwise-error.js";
import { registerSecret } from "../secrets/secret-registry.js";

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export class EnvVariableError extends HookwiseError {
  override readonly name = "EnvVariableError";
  /** The variable's name. */
  readonly variable: string;
  /** Where it was written (`toolsets.api.auth.bearer.token`). */
  readonly where: string;

  constructor(variable: string, where: string) {
    super(
      `${where}: environment variable ${variable} is not set (write \${${variable}:-default} for a default)`,
    );
    this.variable = variable;
    this.where = where;
  }

  static override isInstance(error: unknown): error is EnvVariableError {
    return HookwiseError.isInstance(error) && error.name === "EnvVariableError";
  }
}

/** Expands `${VAR}` and `${VAR:-default}`; an unset variable without default throws EnvVariableError. */
export function expandEnv(value: string, where: string, env: NodeJS.ProcessEnv = process.env): string {
  return value.replace(VARIABLE, (_whole, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined && found !== "") {
      registerSecret(found, name);
      return found;
    }
    if (fallback !== undefined) return fallback;
    throw new EnvVariableError(name, where);
  });
}

/** The names of the variables a value refers to (`Bearer ${A}` → `["A"]`). */
export function envReferences(value: string): string[] {
  return [...value.matchAll(VARIABLE)].map((match) => match[1]!);
}

/** How an unset variable is reported in a config (`validate`, a toolset that does not start). */
export function unsetVariableProblem(variable: string): { problem: string; expected: string } {
  return {
    problem: `environment variable ${variable} is not set`,
    expected: `${variable} to be set in the environment hookwise runs in`,
  };
}
