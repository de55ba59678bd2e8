/**
 * `hookwise setup <harness> <config> [--scope project|user|local] [--dry-run] [--remove]`:
 * adds to the harness's settings file one entry per harness event the config's hooks and
 * policies need, each running `hookwise hook <config> --harness <harness>`. Everything
 * else in the file stays; a second run changes nothing; `--remove` takes out only these
 * entries. The command names hookwise by the path it is installed at (see docs/harnesses.md).
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { nearest } from "../../errors/nearest.js";
import { lineDiff, type SettingsObject, withOurs, withoutOurs } from "../../harnesses/merge-settings.js";
import { HARNESSES } from "../../harnesses/protocols.js";
import {
  HARNESS_NAMES,
  type HarnessEventKind,
  type HarnessName,
  type HarnessProtocol,
} from "../../harnesses/types.js";
import { packageDir } from "../package-dir.js";
import {
  configEvents,
  ownCommand,
  pathWord,
  projectInstall,
  projectVariable,
  quote,
  readSettings,
  type SetupScope,
} from "../setup-entries.js";
import type { CliIO } from "../types.js";
import { UsageError } from "../usage-error.js";

export interface SetupOptions {
  scope: SetupScope;
  dryRun?: boolean;
  remove?: boolean;
  agent?: string;
  /** The project's folder (default: the current one). */
  project?: string;
  /** Codex: record its trust in the entries written (default true). */
  trust?: boolean;
  /** A running `hookwise serve` of the config to answer through, falling back to the command itself. */
  server?: string;
}

/** Loader flags the CLI was started with (`--import tsx`), resolved so they work from any folder. */
function loaderFlags(): string[] {
  const flags: string[] = [];
  const args = process.execArgv;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const takesValue = arg === "--import" || arg === "--require" || arg === "-r" || arg === "--loader";
    if (!takesValue) continue;
    let value = args[++index];
    if (value === undefined) break;
    if (!value.startsWith(".") && !isAbsolute(value) && !value.startsWith("file:")) {
      try {
        value = import.meta.resolve(value);
      } catch {
        // Left as given: it resolves where it resolved for this process.
      }
    }
    flags.push(arg, value);
  }
  return flags;
}

/**
 * The command the harness runs. In a project that installed hookwise, and a harness that
 * tells hook commands where the project is (`$CLAUDE_PROJECT_DIR`), the command names both
 * through that variable, so the settings file works in every clone. Otherwise it names this
 * hookwise and the config by absolute path (`node` is this process's own).
 */
export function hookCommandLine(
  protocol: HarnessProtocol,
  configFile: string,
  projectDir: string,
  scope: SetupOptions["scope"],
  agent: string | undefined,
): string {
  const tail = ["--harness", protocol.name, ...(agent ? ["--agent", agent] : [])].map(quote);
  const variable = projectVariable(protocol, configFile, projectDir, scope);
  const config = pathWord(configFile, projectDir, variable);
  if (variable !== undefined) {
    const installed = projectInstall(projectDir)!;
    return ["node", pathWord(installed, projectDir, variable), "hook", config, ...tail].join(" ");
  }
  const script = process.argv[1] ? resolve(process.argv[1]) : fileURLToPath(import.meta.url);
  return [...[process.execPath, ...loaderFlags(), script].map(quote), "hook", config, ...tail].join(" ");
}

/** `--server`: a server's origin, checked (http or https, no credentials, path or query). */
function serverOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `--server must be the URL of a running hookwise serve, e.g. http://127.0.0.1:8787 (got "${text}")`,
    );
  }
  if (
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.username ||
    url.password ||
    (url.pathname !== "/" && url.pathname !== "") ||
    url.search ||
    url.hash
  )
    throw new UsageError(
      `--server must be a server's origin, http(s)://host:port with nothing after it, e.g. http://127.0.0.1:8787 (got "${text}")`,
    );
  return url.origin;
}

/**
 * The command that asks a running `hookwise serve` first (`POST /hooks/<harness>`, a few
 * milliseconds) and runs `local` itself when the server does not answer 200: not running, a
 * different or changed config, a token it does not have. The event is read once and given to
 * whichever answers. The server's token, when it has one, comes from `HOOKWISE_SERVER_TOKEN`
 * in the harness's environment, never from the settings file.
 *
 * A server on this machine over plain HTTP is asked by `bin/hookwise-post.bash` (bash's own
 * /dev/tcp; the shell execs bash: no other process), any other by curl. Without bash on the
 * PATH the command decides itself. A gate's command ends with 0 or 2 only, whichever answers.
 */
function throughServer(
  local: string,
  origin: string,
  harness: HarnessName,
  configFile: string,
  projectDir: string,
  variable: string | undefined,
  agent: string | undefined,
  gate: boolean,
): string {
  const installed = variable === undefined ? undefined : projectInstall(projectDir);
  const config = pathWord(configFile, projectDir, variable);
  // The fallback gets what is left of the harness's 60 s after the server's 30 s at most.
  const fallback = `${local} --timeout 25`;
  const url = new URL(origin);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (url.protocol === "http:" && ["127.0.0.1", "localhost", "::1"].includes(host)) {
    const script = installed
      ? pathWord(join(dirname(installed), "hookwise-post.bash"), projectDir, variable)
      : quote(
          join(
            packageDir()?.dir ?? resolve(dirname(fileURLToPath(import.meta.url)), "../../.."),
            "bin",
            "hookwise-post.bash",
          ),
        );
    // BASH_ENV emptied: a startup file of the harness's environment prints nothing into the
    // answer. LC_ALL=C, which the script sets anyway: bash starts without loading a locale.
    // The shell execs bash (no shell waiting beside it on every call) once bash and a script it
    // can read are there. A gate's script ends with 0 or 2 only (HOOKWISE_GATE=1), and an exec
    // that fails ends the shell through its EXIT trap: blocked.
    const post = [
      `BASH_ENV= LC_ALL=C${gate ? " HOOKWISE_GATE=1" : ""} exec bash`,
      script,
      quote(host),
      url.port || "80",
      harness,
      config,
      quote(agent ?? ""),
    ];
    const served = `if command -v bash >/dev/null 2>&1 && [ -f ${script} ] && [ -r ${script} ]; then ${post.join(" ")} ${fallback}; fi`;
    return gate
      ? `trap 'echo "hookwise: bash did not start the post script; blocked" >&2; exit 2' EXIT; ${served}; trap - EXIT; ${blockingOnFailure(fallback)}`
      : `${served}; ${fallback}`;
  }
  const configHeader = installed
    ? `"x-hookwise-config: "${config}`
    : quote(`x-hookwise-config: ${configFile}`);
  // The answer is taken only when curl got all of it, a 200 that says it is hookwise's answer
  // (no redirect followed: a login page or a proxy's 200 is not an answer).
  const marker = "hookwise-status-200-1";
  const curl = [
    "curl -s --max-redirs 0 --connect-timeout 1 --max-time 30",
    "-H 'content-type: application/json'",
    `-H ${configHeader}`,
    ...(agent ? [`-H ${quote(`x-hookwise-agent: ${agent}`)}`] : []),
    // The token's header read from stdin, the event from descriptor 3: a process's arguments
    // are readable by every user of the machine, so the token is never one of curl's.
    "-H @-",
    "--data-binary @/dev/fd/3",
    "-w 'hookwise-status-%{http_code}-%header{x-hookwise-answer}'",
    quote(`${origin}/hooks/${harness}`),
  ].join(" ");
  const token = `printf 'authorization: Bearer %s\\n' "$\{HOOKWISE_SERVER_TOKEN:-none}"`;
  const command = `in=$(cat); out=$(printf '%s' "$in" | { ${token} | ${curl}; } 3<&0) || out=; case $out in *${marker}) printf '%s' "\${out%${marker}}" ;; *) printf '%s' "$in" | ${fallback} ;; esac`;
  return gate ? blockingOnFailure(command) : command;
}

/** The events whose hook decides whether something happens: a tool call, a permission, a prompt, a model request. */
const GATE_KINDS: readonly HarnessEventKind[] = [
  "tool_call",
  "approval_request",
  "run_start",
  "model_request",
];

/**
 * A gate's command blocks (exit 2, which every harness reads as "no") when it ends any other
 * way than answering: `node` not on the harness's PATH, a crash, a signal. The harnesses take
 * any other exit code as a hook's own failure and go on with the call. Other events keep
 * their exit code: a Stop hook's exit 2 would keep the agent working.
 */
function blockingOnFailure(command: string): string {
  return `{ ${command}; }; code=$?; case $code in 0|2) exit $code ;; esac; echo "hookwise: the hook command ended with exit code $code before deciding; blocked" >&2; exit 2`;
}

export async function setupCommand(
  harnessName: string,
  configPath: string,
  options: SetupOptions,
  io: CliIO,
): Promise<number> {
  if (!(HARNESS_NAMES as readonly string[]).includes(harnessName)) {
    const hint = nearest(harnessName, HARNESS_NAMES);
    throw new UsageError(
      `unknown harness "${harnessName}" (claude, codex, gemini, cursor)${hint ? `; did you mean "${hint}"?` : ""}`,
    );
  }
  const protocol = HARNESSES[harnessName as HarnessName];
  const projectDir = resolve(options.project ?? process.cwd());
  const relativeFile = protocol.settings.files[options.scope];
  if (relativeFile === undefined) {
    const scopes = Object.entries(protocol.settings.files)
      .filter(([, file]) => file !== undefined)
      .map(([scope]) => scope);
    throw new UsageError(
      `${protocol.label} has no ${options.scope} settings file (scopes: ${scopes.join(", ")})`,
    );
  }
  const file = join(options.scope === "user" ? homedir() : projectDir, relativeFile);
  const configFile = resolve(configPath);
  const variable = projectVariable(protocol, configFile, projectDir, options.scope);
  const local = hookCommandLine(protocol, configFile, projectDir, options.scope, options.agent);
  const origin = options.server === undefined ? undefined : serverOrigin(options.server);
  /** The entry's command: a gate's blocks when it ends without deciding. */
  const commandFor = (gate: boolean) =>
    origin === undefined
      ? gate
        ? blockingOnFailure(local)
        : local
      : throughServer(local, origin, protocol.name, configFile, projectDir, variable, options.agent, gate);
  const command = commandFor(false);
  // Setup's entries are those running hookwise hook for this harness with this very config.
  const isOurs = ownCommand(pathWord(configFile, projectDir, variable), protocol.name);

  const { text, object } = readSettings(file);
  const trustsHooks = protocol.name === "codex" && options.trust !== false;
  let next: SettingsObject;
  let events: string[] = [];
  if (options.remove) next = withoutOurs(object, protocol.settings, isOurs);
  else {
    // The config must load as the hook would load it: a broken one would block every call.
    events = await configEvents(configPath, protocol, options.agent);
    if (events.length === 0)
      throw new UsageError(
        `${configPath} has no hooks or policies ${protocol.label} can run (it runs ${Object.keys(protocol.settings.eventsFor).join(", ")})`,
      );
    const gates = new Set(GATE_KINDS.flatMap((kind) => protocol.settings.eventsFor[kind] ?? []));
    next = withOurs(object, protocol.settings, (event) => commandFor(gates.has(event)), events, isOurs);
  }
  const nextText = `${JSON.stringify(next, null, 2)}\n`;
  const label = options.scope === "user" ? `~/${relativeFile}` : relativeFile;
  if (nextText === text || (text === "" && Object.keys(next).length === 0)) {
    io.stdout.line(
      `${label}: nothing to change${options.remove ? " (no entry of hookwise setup is in it)" : ""}`,
    );
    return trustsHooks && !options.remove && !options.dryRun
      ? trustCodexEntries(file, projectDir, isOurs, io)
      : 0;
  }
  if (options.dryRun) {
    io.stdout.line(lineDiff(text.replace(/\n$/, ""), nextText.replace(/\n$/, ""), label));
    if (trustsHooks && !options.remove)
      io.stdout.line("(and Codex's trust in the new entries would be recorded in its config.toml)");
    io.stdout.line("(dry run: nothing was written)");
    return 0;
  }
  // Codex's trust in the entries about to go is taken out with them (keys name their places).
  const untrusted = options.remove && protocol.name === "codex" ? ourKeys(file, object, isOurs) : [];
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.hookwise-${process.pid}.tmp`;
  writeFileSync(temporary, nextText);
  renameSync(temporary, file);
  if (options.remove) {
    io.stdout.line(`${label}: removed the entries of hookwise setup`);
    if (untrusted.length) {
      const { codexHome, readCodexConfig, withTrust, writeCodexConfig } = await import(
        "../../harnesses/codex/trust.js"
      );
      const tomlFile = join(codexHome(), "config.toml");
      const toml = readCodexConfig(tomlFile);
      const nextToml = withTrust(
        toml,
        untrusted.map((key) => ({ key })),
      );
      if (nextToml !== toml) {
        writeCodexConfig(tomlFile, nextToml);
        io.stdout.line(`${tomlFile}: removed Codex's trust in them`);
      }
    }
    return 0;
  }
  io.stdout.line(`${label}: ${protocol.label} now runs hookwise on ${events.join(", ")}`);
  io.stdout.line(`  command: ${command}`);
  io.stdout.line(
    // A project's own install is not on PATH: npx finds it.
    `  undo: ${projectInstall(projectDir) ? "npx " : ""}hookwise setup ${protocol.name} ${configPath}${options.scope === "project" ? "" : ` --scope ${options.scope}`} --remove`,
  );
  return trustsHooks ? trustCodexEntries(file, projectDir, isOurs, io) : 0;
}

/** The keys Codex names setup's entries of a hooks file by (`<file>:pre_tool_use:0:0`). */
function ourKeys(file: string, settings: SettingsObject, isOurs: (command: string) => boolean): string[] {
  const keys: string[] = [];
  const hooks = (settings.hooks ?? {}) as Record<string, { hooks?: { command?: unknown }[] }[]>;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const snake = event.replace(/(?<!^)([A-Z])/g, "_$1").toLowerCase();
    groups.forEach((group, groupIndex) => {
      group?.hooks?.forEach((hook, index) => {
        if (typeof hook?.command === "string" && isOurs(hook.command))
          keys.push(`${file}:${snake}:${groupIndex}:${index}`);
      });
    });
  }
  return keys;
}

/**
 * Records Codex's trust in setup's entries, as its hooks review would: without it Codex
 * skips them without a word, so a failure here is exit 1 with what to do.
 */
async function trustCodexEntries(
  file: string,
  projectDir: string,
  isOurs: (command: string) => boolean,
  io: CliIO,
): Promise<number> {
  const { codexHome, listCodexHooks, oursOf, readCodexConfig, withTrust, writeCodexConfig } = await import(
    "../../harnesses/codex/trust.js"
  );
  const tomlFile = join(codexHome(), "config.toml");
  try {
    const ours = oursOf(await listCodexHooks(projectDir), isOurs).filter((hook) =>
      hook.key.startsWith(`${file}:`),
    );
    if (ours.length === 0) {
      // Codex lists a project's hooks only once it trusts the project: say that, not "put codex on PATH".
      io.stderr.line(
        `hookwise: Codex does not list the entries of ${file} for ${projectDir}: Codex reads a project's hooks only when it trusts the project. Trust it (trust_level = "trusted" under [projects.${JSON.stringify(projectDir)}] in ${tomlFile}, or by answering Codex's trust prompt in the project), then run this again (--no-trust to leave the entries to Codex's hooks review)`,
      );
      return 1;
    }
    const toml = readCodexConfig(tomlFile);
    const next = withTrust(
      toml,
      ours.map((hook) => ({ key: hook.key, hash: hook.currentHash })),
    );
    if (next !== toml) writeCodexConfig(tomlFile, next);
    io.stdout.line(
      `${tomlFile}: Codex trusts the ${ours.length} entr${ours.length === 1 ? "y" : "ies"} of hookwise setup`,
    );
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.line(
      `hookwise: ${message}. Codex skips hooks it has not trusted: trust the new entries in Codex's hooks review, or run this again with codex on PATH (--no-trust to leave it to the review)`,
    );
    return 1;
  }
}
