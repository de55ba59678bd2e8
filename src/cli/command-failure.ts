/** How a command that threw ends: its message in one line (no stack trace for a user mistake), and the exit code. */
import { ConfigError, formatIssue } from "../config/source/config-error.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import { EXIT } from "./exit-codes.js";
import type { CliIO } from "./types.js";

export function commandFailure(error: unknown, io: CliIO): number {
  if (ConfigError.isInstance(error)) {
    for (const issue of error.issues) if (issue.severity === "error") io.stderr.line(formatIssue(issue));
    return EXIT.usage;
  }
  if (HookwiseError.isInstance(error)) {
    io.stderr.line(`hookwise: ${error.message}`);
    // A package to install or an API key to set is set-up, as a config mistake is: exit 2.
    const usage = [
      "UsageError",
      "ConfigFileError",
      "ConfigReferenceError",
      "MissingApiKeyError",
      "MissingPackageError",
    ].includes(error.name);
    return usage ? EXIT.usage : EXIT.error;
  }
  io.stderr.line(
    `hookwise: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  return EXIT.error;
}
