/**
 * `hookwise tools <config>`: every tool an agent of the config offers, by both of its
 * names — the one the model calls (`calc_add`) and the one hooks and policies match
 * (`calc.add`) — with its description and input schema. `--json` prints the same as JSON.
 */
import { harnessesOf } from "../../config/check/harness-tools-of.js";
import { loadConfig, readConfig } from "../../config/load-config.js";
import { ConfigReferenceError } from "../../config/source/config-error.js";
import { nearest } from "../../errors/nearest.js";
import { harnessTools } from "../../harnesses/harness-tools.js";
import { HARNESSES } from "../../harnesses/protocols.js";
import { MemoryStore } from "../../state/memory-store.js";
import type { ResolvedTool } from "../../tools/resolved-tool.js";
import { EXIT } from "../exit-codes.js";
import type { CliIO } from "../types.js";

export interface ToolListing {
  /** The name the model sees and calls. */
  functionName: string;
  /** The name hooks, policies and `match:` patterns use. */
  qualifiedName: string;
  toolset: string | null;
  description: string;
  inputSchema: Record<string, unknown>;
}

function listing(tool: ResolvedTool): ToolListing {
  return {
    functionName: tool.functionName,
    qualifiedName: tool.qualifiedName,
    toolset: tool.toolset ?? null,
    description: tool.description,
    inputSchema: tool.input.jsonSchema,
  };
}

/** `{ a: number, b?: string }`: the schema's top-level properties, in one line. */
function signature(schema: Record<string, unknown>): string {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const fields = Object.entries(properties).map(([name, property]) => {
    const type = Array.isArray(property.type) ? property.type.join(" | ") : String(property.type ?? "any");
    return `${name}${required.has(name) ? "" : "?"}: ${type}`;
  });
  return `{ ${fields.join(", ")} }`.replace("{  }", "{}");
}

export async function toolsCommand(
  configPath: string,
  options: { agent?: string; json?: boolean },
  io: CliIO,
): Promise<number> {
  const { config } = readConfig(configPath).validated;
  // A config that only guards harnesses runs no agent: their tools are what its rules name.
  if (harnessesOf(config).length && Object.keys(config.models).length === 0) {
    // Every agent guards the same tools; an agent the config does not have is still a mistake.
    const ids = config.agents.length ? config.agents.map((agent) => agent.id) : ["main"];
    if (options.agent !== undefined && !ids.includes(options.agent)) {
      const hint = nearest(options.agent, ids);
      throw new ConfigReferenceError(
        `unknown agent "${options.agent}" (agents: ${ids.join(", ")})${hint ? `; did you mean "${hint}"?` : ""}`,
      );
    }
    return harnessListing(config, options, io);
  }
  // Listing writes nothing: a memory store, whatever runtime.state says.
  const loaded = await loadConfig(configPath, {
    store: new MemoryStore(),
    logger: {
      debug() {},
      info() {},
      warn: (message) => io.stderr.line(`  warning: ${message}`),
      error: (message) => io.stderr.line(`  error: ${message}`),
    },
  });
  try {
    const ids = options.agent ? [options.agent] : loaded.agentIds;
    const report: { agent: string; tools: ToolListing[] }[] = [];
    for (const id of ids) {
      const agent = await loaded.createAgent(id);
      const tools = agent.runtime.tools.map(listing);
      tools.sort((a, b) => a.qualifiedName.localeCompare(b.qualifiedName));
      report.push({ agent: id, tools });
    }
    if (options.json) {
      io.stdout.line(JSON.stringify(ids.length === 1 && options.agent ? report[0] : report, null, 2));
      return EXIT.completed;
    }
    for (const { agent, tools } of report) {
      io.stdout.line(
        `agent ${agent} · ${tools.length} tool${tools.length === 1 ? "" : "s"} (model's name · hooks' name)`,
      );
      for (const tool of tools) {
        io.stdout.line(`  ${tool.functionName} · ${tool.qualifiedName}  ${signature(tool.inputSchema)}`);
        if (tool.description) io.stdout.line(`      ${tool.description.replace(/\s+/g, " ")}`);
      }
    }
    return EXIT.completed;
  } finally {
    await loaded.close();
  }
}

/** Each harness's tools: its own name (what the harness calls it) and the family name rules may use. */
function harnessListing(
  config: Parameters<typeof harnessesOf>[0],
  options: { json?: boolean },
  io: CliIO,
): number {
  const report = harnessesOf(config).map((name) => ({
    harness: name,
    tools: harnessTools([HARNESSES[name]]).map(
      (tool): ToolListing => ({
        functionName: tool.functionName,
        qualifiedName: tool.qualifiedName,
        toolset: null,
        description: tool.spec?.description ?? "",
        inputSchema: tool.spec?.input ?? {},
      }),
    ),
  }));
  if (options.json) {
    io.stdout.line(JSON.stringify(report, null, 2));
    return EXIT.completed;
  }
  for (const { harness, tools } of report) {
    io.stdout.line(
      `harness ${HARNESSES[harness].label} · ${tools.length} tool${tools.length === 1 ? "" : "s"} (the harness's name · the name for every harness)`,
    );
    for (const tool of tools) {
      io.stdout.line(`  ${tool.functionName} · ${tool.qualifiedName}  ${signature(tool.inputSchema)}`);
      if (tool.description) io.stdout.line(`      ${tool.description.replace(/\s+/g, " ")}`);
    }
  }
  return EXIT.completed;
}
