/**
 * The config file's structure, in zod. Conditions and actions are validated
 * against their registries by the loader (so each kind owns its schema); policies, hook
 * fields, toolsets, models and agents are validated here. `hookwise schema` prints the
 * JSON Schema generated from this file.
 */
import { lazy } from "../../deps/load-package.js";
import { z } from "../../deps/zod.js";
import { HARNESS_NAMES } from "../../harnesses/types.js";
import { serverSchema } from "./server-schema.js";

const seconds = lazy(() => z.number().min(0));

/** Providers are checked against the registry by the validator (with the nearest name). */
export const modelSchema = lazy(() =>
  z.union([
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+:.+$/, 'a model string is "provider:model-id", e.g. "openai:gpt-4.1-mini"')
      .describe(
        '"provider:model-id": openai:, openai-chat:, anthropic:, google:, ollama:, scripted:./script.yaml',
      ),
    z.strictObject({
      provider: z
        .string()
        .describe("openai | openai-chat | anthropic | google | openai-compatible | ollama | scripted"),
      model: z.string().min(1).describe("the provider's model id (a script file for scripted)"),
      base_url: z
        .string()
        .regex(/^https?:\/\/\S+$/, "base_url is an http(s) URL, e.g. http://127.0.0.1:11434/v1")
        .optional()
        .describe("the endpoint; required for openai-compatible (Ollama, vLLM, llama.cpp servers)"),
      api_key_env: z
        .string()
        .regex(
          /^[A-Za-z_][A-Za-z0-9_]*$/,
          "api_key_env is the NAME of an environment variable (e.g. MY_OPENAI_KEY), never the key itself",
        )
        .optional()
        .describe("the environment variable holding the key (default: the provider's, e.g. OPENAI_API_KEY)"),
      context_window: z.number().int().positive().optional().describe("tokens, for context_pressure"),
      options: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("provider settings (headers, organization, project, name…); never a key"),
      fallback: z
        .string()
        .optional()
        .describe("a model declared under models:, used once this one's retries are exhausted"),
      max_retries: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe("retries of this model (default: the agent's)"),
    }),
  ]),
);

const prefix = lazy(() => ({ prefix: z.boolean().optional() }));

const fromEnvironment = lazy(() =>
  z.string().regex(
    /\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}/,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax, shown to the user
    'a secret is read from the environment, never written in the config: "${API_TOKEN}"',
  ),
);

/** A REST API from its OpenAPI document: one tool per operation (src/tools/openapi). */
const openapiToolsetSchema = lazy(() =>
  z.strictObject({
    kind: z.literal("openapi"),
    spec: z
      .string()
      .min(1)
      .describe("the OpenAPI 3.0/3.1 document: a path relative to the config, or an https:// URL"),
    base_url: z.string().min(1).optional().describe("the API's address; replaces the document's servers"),
    operations: z
      .array(z.string().min(1))
      .optional()
      .describe("globs over tool names to keep (invoices_*), !glob to drop; default: every operation"),
    auth: z
      .record(
        z.string(),
        z.strictObject({
          token: fromEnvironment().optional().describe("bearer / OAuth 2 token"),
          key: fromEnvironment().optional().describe("API key (header, query or cookie, as the scheme says)"),
          username: z.string().optional().describe("HTTP basic user"),
          password: fromEnvironment().optional().describe("HTTP basic password"),
        }),
      )
      .optional()
      .describe("credentials per security scheme of the document, from the environment"),
    headers: z
      .record(z.string(), z.string())
      .optional()
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax, shown to the user
      .describe("sent with every request; ${VAR} values are read from the environment and redacted"),
    timeout: z.number().positive().optional().describe("seconds per attempt (default 30)"),
    max_response_bytes: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("larger answers are refused (default 1048576)"),
    retries: z.number().int().min(0).max(10).optional().describe("retries of a 429 / 503 answer (default 2)"),
    ...prefix(),
  }),
);

export const toolsetSchema = lazy(() =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("module"), path: z.string(), ...prefix() }),
    z.strictObject({
      kind: z.literal("mcp"),
      command: z.string().optional(),
      args: z.array(z.string()).optional(),
      env: z.record(z.string(), z.string()).optional(),
      url: z.string().optional(),
      headers: z.record(z.string(), z.string()).optional(),
      ...prefix(),
    }),
    z.strictObject({
      kind: z.literal("builtin"),
      module: z.enum(["filesystem", "memory", "coding"]),
      root: z.string().optional(),
      ...prefix(),
    }),
    openapiToolsetSchema(),
  ]),
);

/** A condition or action: `type` picks the registry entry that validates the rest. */
const kindObject = lazy(() => z.looseObject({ type: z.string() }));

export const hookEntrySchema = lazy(() =>
  z.strictObject({
    id: z.string().min(1),
    on: z.string().default("run_end"),
    condition: kindObject().default({ type: "always" }),
    action: kindObject(),
    cooldown: seconds().default(0),
    max_fires: z.number().int().min(0).default(0),
    rate_limit: z
      .strictObject({ max: z.number().int().positive(), per_seconds: z.number().positive() })
      .optional(),
    priority: z.number().int().default(100),
    enabled: z.boolean().default(true),
    tags: z.array(z.string()).default([]),
    on_error: z.enum(["fail_closed", "fail_open"]).optional(),
    /** Seconds. */
    timeout: z.number().positive().optional(),
    limit_scope: z.enum(["session", "global"]).default("session"),
    scope: z.enum(["all", "self", "children"]).optional(),
  }),
);

export const policyEntrySchema = lazy(() =>
  z.strictObject({
    decision: z.enum(["deny", "allow", "ask_user"]),
    tool: z.string().min(1),
    when: z.string().optional(),
    reason: z.string().optional(),
  }),
);

/** A `hooks:` manifest entry: synthetic tool-call injection at request start. */
export const manifestHookSchema = lazy(() =>
  z.strictObject({
    kind: z.literal("tool_call").default("tool_call"),
    event: z.literal("on_request_start"),
    name: z.string().optional(),
    toolset_name: z.string().optional(),
    tool_name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).default({}),
    frequency: z.enum(["always", "append_if_changed", "once"]).default("append_if_changed"),
    refresh_condition: z
      .strictObject({ kind: z.literal("ttl"), ttl_minutes: z.number().int().positive() })
      .optional(),
  }),
);

const sessionTtl = lazy(() =>
  z
    .number()
    .positive()
    .optional()
    .describe("seconds a session is kept after its last run (default: until deleted)"),
);

export const stateSchema = lazy(() =>
  z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("memory"),
      session_ttl: sessionTtl(),
      max_sessions: z.number().int().positive().optional().describe("sessions kept at most (default 10000)"),
      keep_one_shot: z
        .boolean()
        .optional()
        .describe("also keep the sessions of runs given no session id (default false)"),
    }),
    z.strictObject({
      kind: z.literal("sqlite"),
      path: z.string().default(".hookwise/state.db"),
      session_ttl: sessionTtl(),
    }),
    z.strictObject({
      kind: z.literal("file"),
      path: z.string().default(".hookwise/state").describe("a folder: one file per value and per session"),
      session_ttl: sessionTtl(),
    }),
    z.strictObject({
      kind: z.literal("redis"),
      url: z
        .string()
        .regex(/^rediss?:\/\//, "expected a redis:// or rediss:// URL")
        .refine(
          (url) => !/^rediss?:\/\/[^/]*@/.test(url),
          "no user or password in the config file: put the whole URL in the HOOKWISE_STATE_URL environment variable instead",
        )
        .optional()
        .describe("redis://host:6379[/db] (default: the HOOKWISE_STATE_URL environment variable)"),
      prefix: z.string().optional().describe('prefix of every key (default "hookwise:")'),
      session_ttl: sessionTtl(),
    }),
  ]),
);

const cacheSchema = lazy(() =>
  z
    .strictObject({
      breakpoints: z
        .enum(["auto", "off"])
        .optional()
        .describe(
          "auto (default): mark where the stable history ends for providers that want cache breakpoints (Anthropic, Claude on Bedrock); off: no marks",
        ),
    })
    .describe("the provider's prompt cache"),
);
export const telemetrySchema = lazy(() =>
  z
    .strictObject({
      enabled: z
        .boolean()
        .optional()
        .describe(
          "emit OpenTelemetry spans through the registered tracer provider (default true once telemetry: is given)",
        ),
      record_inputs: z
        .boolean()
        .optional()
        .describe(
          "record prompts, the run's input and tool arguments on spans, after the hooks that rewrite them (default false)",
        ),
      record_outputs: z
        .boolean()
        .optional()
        .describe(
          "record completions, the run's output and tool results on spans, after the hooks that redact them (default false)",
        ),
      function_id: z
        .string()
        .min(1)
        .optional()
        .describe("names these runs in your traces (hookwise.function_id on every span)"),
    })
    .describe("OpenTelemetry spans for runs, steps, model calls, tool calls and every hook firing"),
);

export const agentSchema = lazy(() =>
  z.strictObject({
    id: z.string().regex(/^[A-Za-z0-9_-]+$/, "an agent id uses letters, digits, _ and -"),
    role: z.string().optional(),
    description: z.string().optional(),
    instructions: z.string().optional(),
    model: z.string().optional(),
    /** The legacy model block; `brain.model` names a model when `model` is absent. */
    brain: z.record(z.string(), z.unknown()).nullable().optional(),
    tools: z.array(z.string()).optional(),
    hooks: z.array(z.unknown()).default([]),
    policies: z.array(z.unknown()).default([]),
    max_steps: z.number().int().positive().optional(),
    tool_concurrency: z.number().int().positive().optional(),
    max_retries: z.number().int().min(0).optional(),
    cache: cacheSchema().optional(),
    /** Seconds a pending approval can be approved (default: runtime.approval_ttl, else 24 h). */
    approval_ttl: z
      .number()
      .positive()
      .optional()
      .describe("seconds a pending approval can be approved (default: runtime.approval_ttl, else 86400)"),
  }),
);

export const runtimeSchema = lazy(() =>
  z.strictObject({
    state: stateSchema().optional(),
    telemetry: telemetrySchema().optional(),
    session_wait: z
      .number()
      .min(0)
      .optional()
      .describe("seconds a run waits while another run has its session, then fails as busy (default 10)"),
    session_lease: z
      .number()
      .positive()
      .optional()
      .describe("seconds a session stays taken by a run whose process died on another machine (default 30)"),
    record_runs: z
      .boolean()
      .optional()
      .describe(
        "keep a record of every run (model answers, tool results, hook decisions) for trace, history --jsonl and replay (default: on when the state store is SQLite or Redis)",
      ),
    hooks: z.array(z.unknown()).default([]),
    policies: z.array(z.unknown()).default([]),
    max_steps: z.number().int().positive().optional(),
    tool_concurrency: z.number().int().positive().optional(),
    max_retries: z.number().int().min(0).optional(),
    /** Default hook timeout, seconds. */
    hook_timeout: z.number().positive().optional(),
    cache: cacheSchema().optional(),
    /** Seconds a pending approval can be approved; after it, it can only be denied (default 24 h). */
    approval_ttl: z
      .number()
      .positive()
      .optional()
      .describe(
        "seconds a pending approval of a suspended run can be approved (default 86400); after it, deny only",
      ),
    approvals: z
      .enum(["inbox"])
      .optional()
      .describe(
        "inbox: an approval asked where no run can suspend (hookwise hook, hookwise mcp without MCP elicitation) waits, bounded by approval_wait, for a decision in the approval inbox of a hookwise serve on the same state store, and is denied if none comes",
      ),
    approval_wait: z
      .number()
      .positive()
      .optional()
      .describe(
        "seconds such an approval waits in the inbox before it is denied (default: hookwise hook until 3 s before its --timeout, hookwise mcp 50)",
      ),
  }),
);

export const configSchema = lazy(() =>
  z.strictObject({
    $schema: z.string().optional(),
    models: z.record(z.string(), modelSchema()).default({}),
    toolsets: z.record(z.string(), toolsetSchema()).default({}),
    runtime: runtimeSchema().default({ hooks: [], policies: [] }),
    execution: z.strictObject({ hooks: z.array(z.unknown()).default([]) }).optional(),
    agents: z.array(agentSchema()).default([]),
    hooks: z.array(z.unknown()).default([]),
    harness: z
      .union([z.enum(HARNESS_NAMES), z.array(z.enum(HARNESS_NAMES)).min(1)])
      .optional()
      .describe(
        "the coding-agent harness(es) this config guards through hookwise hook (claude, codex, gemini, cursor): tools are then the harness's own (Bash, Read, run_shell_command…, or shell, read_file… for every harness at once) and args their tool_input",
      ),
    claude_hooks: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .optional()
      .describe(
        "Claude Code settings files (.claude/settings.json…) whose hooks run here, relative to this file; several merge as Claude Code merges user, project and local settings",
      ),
    claude_hooks_failure: z
      .enum(["open", "closed"])
      .optional()
      .describe(
        "what a Claude Code hook that crashes, times out or answers unusable output does: open (default, as in Claude Code) lets the operation through; closed blocks it",
      ),
    server: serverSchema().optional(),
    tests: z
      .array(z.unknown())
      .optional()
      .describe("test cases hookwise test runs: prompt or recorded session, scripted answers, expectations"),
  }),
);

export type HookEntry = z.output<ReturnType<typeof hookEntrySchema>>;
export type PolicyEntry = z.output<ReturnType<typeof policyEntrySchema>>;
export type ManifestHook = z.output<ReturnType<typeof manifestHookSchema>>;
export type AgentEntry = z.output<ReturnType<typeof agentSchema>>;
export type ToolsetEntry = z.output<ReturnType<typeof toolsetSchema>>;
export type ModelEntry = z.output<ReturnType<typeof modelSchema>>;
export type ConfigFile = z.output<ReturnType<typeof configSchema>>;
