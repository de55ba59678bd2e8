#!/usr/bin/env node
/**
 * The `hookwise` CLI: a face only (DESIGN §12) — it parses arguments, calls the library,
 * prints, and maps outcomes to exit codes. User mistakes get one line, never a stack trace.
 */
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Command, CommanderError } from "commander";
import { ConfigError, formatIssue } from "../config/config-error.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import { EXIT } from "./exit-codes.js";
import { explainCommand } from "./explain-command.js";
import { type CliIO, runCommand } from "./run-command.js";
import { schemaCommand } from "./schema-command.js";
import { validateCommand } from "./validate-command.js";

function ioFromProcess(): CliIO {
  const printer = (stream: NodeJS.WriteStream) => ({
    line: (text: string) => void stream.write(`${text}\n`),
    write: (text: string) => void stream.write(text),
  });
  return {
    stdout: printer(process.stdout),
    stderr: printer(process.stderr),
    isTTY: Boolean(process.stdin.isTTY),
  };
}

export async function main(argv: readonly string[], io: CliIO = ioFromProcess()): Promise<number> {
  let code = 0;
  const program = new Command()
    .name("hookwise")
    .description("Run LLM agents whose every seam is hookable, from a YAML/JSON config")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showSuggestionAfterError(true);

  program
    .command("run")
    .description("run an agent of a config")
    .argument("<config>", "the config file (YAML or JSON)")
    .option("-p, --prompt <text>", "the user input (omit on a terminal for an interactive chat)")
    .option("-a, --agent <id>", "which agent to run (default: the first)")
    .option("-s, --session <id>", "continue this session (transcripts persist beside the config)")
    .option("--json", "print the RunResult as one JSON document on stdout")
    .action(async (config: string, options) => {
      code = await runCommand(config, options, io);
    });

  program
    .command("validate")
    .description("check a config: every error with file:line:col, path, expected value")
    .argument("<config>")
    .action((config: string) => {
      code = validateCommand(config, io);
    });

  program
    .command("explain")
    .description("per agent and event, the hooks that will run, in order")
    .argument("<config>")
    .option("--json", "also print the report as JSON")
    .action((config: string, options) => {
      code = explainCommand(config, io, options);
    });

  program
    .command("schema")
    .description("print the config's JSON Schema")
    .action(() => {
      code = schemaCommand(io);
    });

  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : EXIT.usage;
    }
    if (ConfigError.isInstance(error)) {
      for (const issue of error.issues) if (issue.severity === "error") io.stderr.line(formatIssue(issue));
      return EXIT.usage;
    }
    if (HookwiseError.isInstance(error)) {
      io.stderr.line(`hookwise: ${error.message}`);
      return error.name === "UsageError" || error.name === "ConfigFileError" ? EXIT.usage : EXIT.error;
    }
    io.stderr.line(
      `hookwise: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return EXIT.error;
  }
}

function invokedDirectly(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return pathToFileURL(realpathSync(script)).href === import.meta.url;
  } catch {
    return false;
  }
}

const isEntry = invokedDirectly();
if (isEntry || process.env.HOOKWISE_CLI === "1") {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
