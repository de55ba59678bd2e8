#!/usr/bin/env node
/**
 * The `hookwise` CLI: a face only — it parses arguments, calls the library,
 * prints, and maps outcomes to exit codes. User mistakes get one line, never a stack trace.
 */
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { cacheCompiledDeps } from "../deps/code-cache.js";
import { commandFailure } from "./command-failure.js";
import type { CliDecision } from "./commands/resume-command.js";
import { EXIT } from "./exit-codes.js";
import { closeOnInterrupt } from "./interrupts.js";
import { ioFromProcess, maskedIO } from "./process-io.js";
import type { CliIO } from "./types.js";
import { packageVersion } from "./version.js";

// Each command's module is imported when the command runs, so `hookwise --help` and
// `hookwise validate` load neither the agent loop nor the server.

export async function main(argv: readonly string[], given: CliIO = ioFromProcess()): Promise<number> {
  const io = maskedIO(given);
  try {
    return await runCommand(argv, io);
  } finally {
    io.flush();
  }
}

/** A subcommand's help epilogue: examples, then what each exit code means. */
function helpAfter(examples: readonly string[], exitCodes: string): string {
  return `\nExamples:\n${examples.map((line) => `  $ ${line}`).join("\n")}\n\nExit codes: ${exitCodes}\n`;
}

const RUN_EXIT_CODES =
  "0 completed, 3 terminated by a hook, 4 max_steps reached, 5 suspended (approvals pending), 1 error, 2 usage or config error";
const READ_EXIT_CODES = "0 done, 2 usage or config error (an unknown session among them), 1 error";

async function runCommand(argv: readonly string[], io: CliIO): Promise<number> {
  let code = 0;
  const program = new Command()
    .name("hookwise")
    .description("Run LLM agents whose every seam is hookable, from a YAML/JSON config")
    .version(packageVersion(), "-V, --version", "print the version of hookwise")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showSuggestionAfterError(true);

  program
    .command("run")
    .description("run an agent of a config")
    .argument("<config>", "the config file (YAML or JSON)")
    .option(
      "-p, --prompt <text>",
      "the user input (default: stdin when it is piped; omit both on a terminal for an interactive chat)",
    )
    .option("-a, --agent <id>", "which agent to run (default: the first)")
    .option("-s, --session <id>", "continue this session (transcripts persist in .hookwise/)")
    .option("--json", "print the RunResult as one JSON document on stdout")
    .option(
      "--claude-settings <path>",
      "also run the hooks of this Claude Code settings file, e.g. .claude/settings.json (repeatable)",
      (path: string, previous: string[] = []) => [...previous, path],
    )
    .addOption(
      new Option(
        "-m, --model <model>",
        "run on this model instead: a name under models: or provider:model-id (e.g. ollama:llama3.2)",
      ).env("HOOKWISE_MODEL"),
    )
    .addHelpText(
      "after",
      helpAfter(
        [
          'hookwise run hookwise.yaml --prompt "What is 17 + 25?"',
          'echo "What is 17 + 25?" | hookwise run hookwise.yaml --json',
          "hookwise run hookwise.yaml --session s1   # a chat on a terminal; --session continues it later",
        ],
        RUN_EXIT_CODES,
      ),
    )
    .action(async (config: string, options) => {
      const { runCommand } = await import("./commands/run-command.js");
      code = await runCommand(config, options, io);
    });

  // Decisions keep their command-line order, so a --reason belongs to the --deny before it.
  const decisions: CliDecision[] = [];
  program
    .command("resume")
    .description("continue a suspended run: approve or deny its pending approvals")
    .argument("<config>", "the config file the run was started with")
    .requiredOption("-r, --run <id>", "the suspended run's id")
    .option(
      "--approve <id>",
      "approve a pending approval: its id, a signed token, or all (repeatable)",
      (id) => {
        decisions.push({ approve: id });
        return id;
      },
    )
    .option("--deny <id>", "deny a pending approval: its id, a signed token, or all (repeatable)", (id) => {
      decisions.push({ deny: id });
      return id;
    })
    .option("--reason <text>", "why the --deny before it was denied (the model receives it)", (text) => {
      const last = decisions.at(-1);
      if (!last || !("deny" in last) || last.reason !== undefined) {
        throw new InvalidArgumentError("--reason must follow a --deny");
      }
      last.reason = text;
      return text;
    })
    .option("--json", "print the RunResult as one JSON document on stdout")
    .addHelpText(
      "after",
      helpAfter(
        [
          "hookwise resume hookwise.yaml --run RUN_ID --approve all",
          'hookwise resume hookwise.yaml --run RUN_ID --deny APPROVAL_ID --reason "not on Fridays"',
        ],
        RUN_EXIT_CODES,
      ),
    )
    .action(async (config: string, options: { run: string; json?: boolean }) => {
      const { resumeCommand } = await import("./commands/resume-command.js");
      code = await resumeCommand(config, { run: options.run, decisions, json: options.json }, io);
    });

  program
    .command("validate")
    .description("check a config: every error with file:line:col, path, expected value")
    .argument("<config>")
    .addOption(
      new Option(
        "-m, --model <model>",
        "check as run --model would run it: agents that name no model get this one",
      ).env("HOOKWISE_MODEL"),
    )
    .addHelpText(
      "after",
      helpAfter(
        ["hookwise validate hookwise.yaml", "hookwise validate hookwise.yaml --model openai:gpt-4.1-mini"],
        "0 valid (warnings may be printed), 2 the config has errors, each printed with file:line:col, 1 error",
      ),
    )
    .action(async (config: string, options: { model?: string }) => {
      const { validateCommand } = await import("./commands/validate-command.js");
      code = await validateCommand(config, io, options);
    });

  program
    .command("explain")
    .description("per agent and event, the hooks that will run, in order")
    .argument("<config>")
    .option("--json", "print the report as one JSON document on stdout (instead of the text)")
    .addHelpText(
      "after",
      helpAfter(
        ["hookwise explain hookwise.yaml", "hookwise explain hookwise.yaml --json"],
        "0 done, 2 the config has errors, 1 error",
      ),
    )
    .action(async (config: string, options) => {
      const { explainCommand } = await import("./commands/explain-command.js");
      code = explainCommand(config, io, options);
    });

  program
    .command("tools")
    .description("the tools of each agent: the model's name, the hooks' name, description, input schema")
    .argument("<config>")
    .option("-a, --agent <id>", "only this agent")
    .option("--json", "print the tools as JSON, input schemas in full")
    .addHelpText(
      "after",
      helpAfter(
        ["hookwise tools hookwise.yaml", "hookwise tools hookwise.yaml --agent main --json"],
        "0 done, 2 the config has errors or the agent is unknown, 1 error (a toolset could not start)",
      ),
    )
    .action(async (config: string, options: { agent?: string; json?: boolean }) => {
      const { toolsCommand } = await import("./commands/tools-command.js");
      code = await toolsCommand(config, options, io);
    });

  program
    .command("history")
    .description("a session's transcript, with the messages compaction archived")
    .argument("<config>", "the config file the session ran with")
    .option("-s, --session <id>", "the session (without it: the sessions recorded)")
    .option("--json", "print { id, messages, archived } as JSON")
    .option(
      "--jsonl",
      "export the session and its recorded runs, one JSON document a line (replay --from reads it)",
    )
    .addHelpText(
      "after",
      helpAfter(
        [
          "hookwise history hookwise.yaml --session s1",
          "hookwise history hookwise.yaml --session s1 --jsonl > s1.jsonl",
        ],
        READ_EXIT_CODES,
      ),
    )
    .action(async (config: string, options: { session?: string; json?: boolean; jsonl?: boolean }) => {
      const { historyCommand } = await import("./commands/history-command.js");
      code = await historyCommand(config, options, io);
    });

  program
    .command("replay")
    .description("replay a recorded session through this config, offline: what it would decide otherwise")
    .argument("<config>", "the config to replay through (possibly changed since the session ran)")
    .option("-s, --session <id>", "a session recorded in the config's store")
    .option("--from <file>", "a session exported with hookwise history --jsonl")
    .option("--json", "print the comparison as JSON")
    .addHelpText(
      "after",
      helpAfter(
        ["hookwise replay changed.yaml --session s1", "hookwise replay changed.yaml --from s1.jsonl --json"],
        READ_EXIT_CODES,
      ),
    )
    .action(async (config: string, options: { session?: string; from?: string; json?: boolean }) => {
      const { replayCommand } = await import("./commands/replay-command.js");
      code = await replayCommand(config, options, io);
    });

  program
    .command("test")
    .description("run the test cases a config declares (tests: in it, or name.test.yaml beside it)")
    .argument("<config>", "the config file")
    .option("--json", "print the results as JSON")
    .addHelpText(
      "after",
      helpAfter(
        ["hookwise test hookwise.yaml", "hookwise test hookwise.yaml --json"],
        "0 every case passed, 1 a case failed (or an error), 2 usage or config error",
      ),
    )
    .action(async (config: string, options: { json?: boolean }) => {
      const { testCommand } = await import("./commands/test-command.js");
      code = await testCommand(config, options, io);
    });

  program
    .command("trace")
    .description("a recorded session's runs as a timeline: steps, attempts, tools, every hook decision")
    .argument("<config>", "the config file the session ran with")
    .option("-s, --session <id>", "the session (without it: the sessions recorded)")
    .option("--json", "print the run records as JSON")
    .addHelpText(
      "after",
      helpAfter(
        ["hookwise trace hookwise.yaml --session s1", "hookwise trace hookwise.yaml --session s1 --json"],
        READ_EXIT_CODES,
      ),
    )
    .action(async (config: string, options: { session?: string; json?: boolean }) => {
      const { traceCommand } = await import("./commands/trace-command.js");
      code = await traceCommand(config, options, io);
    });

  program
    .command("serve")
    .description("serve the config's agents over HTTP, with the web UI at /")
    .argument("<config>", "the config file (YAML or JSON)")
    .option("--port <port>", "the port (0: any free port)", "8787")
    .option(
      "--host <host>",
      "the address to bind (another than loopback needs HOOKWISE_SERVER_TOKEN)",
      "127.0.0.1",
    )
    .addHelpText(
      "after",
      helpAfter(
        [
          "hookwise serve hookwise.yaml",
          "HOOKWISE_SERVER_TOKEN=secret hookwise serve hookwise.yaml --host 0.0.0.0 --port 8080",
        ],
        "0 stopped (Ctrl-C or SIGTERM), 2 usage or config error, 1 error (the port is taken, a package is missing)",
      ),
    )
    .action(async (config: string, options: { port?: string; host?: string }) => {
      const { serveCommand } = await import("./commands/serve-command.js");
      code = await serveCommand(config, options, io);
    });

  program
    .command("hook")
    .description(
      "answer one hook event of a coding-agent harness (on stdin) with the config's hooks and policies",
    )
    .argument("<config>", "the config file (it says harness: claude, codex, gemini or cursor)")
    .addOption(
      new Option("--harness <name>", "the harness whose event is on stdin")
        .choices(["claude", "codex", "gemini", "cursor"])
        .makeOptionMandatory(),
    )
    .option("-a, --agent <id>", "whose hooks and policies (default: the first agent)")
    .option("--timeout <seconds>", "answer within this time, else block (default 45)", positiveNumber)
    .addHelpText(
      "after",
      '\nExample (what hookwise setup writes into .claude/settings.json):\n  echo \'{"hook_event_name":"PreToolUse",…}\' | hookwise hook hookwise.yaml --harness claude\n\nExit codes: 0 answered (the decision is in the JSON on stdout), 2 blocked with the reason on stderr.',
    )
    .action(async (config: string, options: { harness: string; agent?: string; timeout?: number }) => {
      const { hookCommand } = await import("./commands/hook-command.js");
      code = await hookCommand(config, options as Parameters<typeof hookCommand>[1], io);
    });

  program
    .command("setup")
    .description("add the hook entries that run hookwise hook to a harness's settings file")
    .argument("<harness>", "claude, codex, gemini or cursor")
    .argument("<config>", "the config file the harness is to be guarded by")
    .addOption(
      new Option(
        "--scope <scope>",
        "which settings file: the project's, the user's, or the project's local one",
      )
        .choices(["project", "user", "local"])
        .default("project"),
    )
    .option("--dry-run", "print what would change, change nothing")
    .option("--remove", "take out the entries setup added, and nothing else")
    .option("-a, --agent <id>", "guard with this agent's hooks and policies (default: the first agent)")
    .option("--project <dir>", "the project whose settings file changes (default: the current folder)")
    .option(
      "--server <url>",
      "answer through a running hookwise serve of the config (POST /hooks/<harness>), the hook itself when it does not answer",
    )
    .option(
      "--no-trust",
      "codex: do not record Codex's trust in the new entries (Codex skips them until you trust them in its hooks review)",
    )
    .addHelpText(
      "after",
      "\nExample:\n  npx hookwise setup claude hookwise.yaml            # writes .claude/settings.json\n  npx hookwise setup gemini hookwise.yaml --dry-run  # shows the change to .gemini/settings.json\n  npx hookwise setup codex hookwise.yaml             # writes .codex/hooks.json and trusts its entries in ~/.codex/config.toml\n\nExit codes: 0 done (or nothing to change), 1 the settings file cannot be read or written, or Codex's trust could not be recorded, 2 a usage or config error.",
    )
    .action(
      async (
        harness: string,
        config: string,
        options: {
          scope: "project" | "user" | "local";
          dryRun?: boolean;
          remove?: boolean;
          agent?: string;
          project?: string;
          trust?: boolean;
          server?: string;
        },
      ) => {
        const { setupCommand } = await import("./commands/setup-command.js");
        code = await setupCommand(harness, config, options, io);
      },
    );

  program
    .command("mcp")
    .description("serve an agent's tools as an MCP server (stdio, or --http), every call through the config")
    .argument("<config>", "the config file (YAML or JSON)")
    .option("-a, --agent <id>", "whose tools (default: the first agent)")
    .option("--http", "serve Streamable HTTP at /mcp instead of stdio")
    .option("--port <port>", "with --http: the port (0: any free port; default 8788)")
    .option(
      "--host <host>",
      "with --http: the address to bind (another than loopback needs HOOKWISE_SERVER_TOKEN)",
    )
    .option(
      "--max-sessions <n>",
      "with --http: MCP sessions open at once, at most (default 1000); one more is refused until one ends",
    )
    .addHelpText(
      "after",
      helpAfter(
        [
          "hookwise mcp hookwise.yaml                    # stdio: an MCP client starts it as its server",
          "hookwise mcp hookwise.yaml --http --port 8788 # Streamable HTTP at http://127.0.0.1:8788/mcp",
        ],
        "0 ended (the client closed stdin, or SIGINT / SIGTERM), 1 it could not serve (e.g. the port is taken), 2 a usage or config error",
      ),
    )
    .action(
      async (
        config: string,
        options: { agent?: string; http?: boolean; port?: string; host?: string; maxSessions?: string },
      ) => {
        const { mcpCommand } = await import("./commands/mcp-command.js");
        code = await mcpCommand(config, options, io);
      },
    );

  program
    .command("schema")
    .description("print the config's JSON Schema")
    .addHelpText("after", helpAfter(["hookwise schema > hookwise.schema.json"], "0 done"))
    .action(async () => {
      const { schemaCommand } = await import("./commands/schema-command.js");
      code = schemaCommand(io);
    });

  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : EXIT.usage;
    }
    return commandFailure(error, io);
  }
}

function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new InvalidArgumentError("expected a number of seconds above 0");
  return number;
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
  cacheCompiledDeps();
  closeOnInterrupt();
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
