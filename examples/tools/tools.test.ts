/**
 * The four tool-chaining pipelines (examples/tools/*.yaml, shown in docs/tools.md),
 * run on both surfaces against real MCP servers over stdio (demo-server.mjs), asserting
 * what reached each downstream tool — as the server recorded it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordingLogger } from "../../src/config/build/test-evaluation.js";
import { validateConfigText } from "../../src/config/check/validate-config.js";
import { loadConfig } from "../../src/config/load-config.js";
import type { Notification } from "../../src/config/notification-bus.js";
import { MemoryStore, type RunResult } from "../../src/index.js";
import { openResourceCount } from "../../src/tools/open-resources.js";
import { runOn, SURFACES, type SurfaceName } from "../../test/support/surfaces.js";
import { main as subAgents } from "./sub-agents.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));

interface Call {
  server: string;
  tool: string;
  args: Record<string, unknown>;
}

let dir: string;
let record: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-pipelines-"));
  record = join(dir, "calls.jsonl");
  process.env.HOOKWISE_DEMO_RECORD = record;
});
afterEach(() => {
  delete process.env.HOOKWISE_DEMO_RECORD;
  rmSync(dir, { recursive: true, force: true });
  expect(openResourceCount()).toBe(0);
});

function calls(): Call[] {
  if (!existsSync(record)) return [];
  return readFileSync(record, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Call);
}

async function runExample(file: string, surface: SurfaceName, prompt: string) {
  const logger = recordingLogger();
  const loaded = await loadConfig(join(HERE, file), { store: new MemoryStore(), logger });
  const notifications: Notification[] = [];
  loaded.notifications.subscribe((note) => notifications.push(note));
  try {
    const agent = await loaded.createAgent();
    const { result } = await runOn(surface, agent, prompt);
    return { result, logger, notifications, agent };
  } finally {
    await loaded.close();
  }
}

const toolResults = (result: RunResult) => result.steps.flatMap((step) => step.toolResults);

describe("pipeline 1: auto-lint + notify on an MCP file write", () => {
  it.each(SURFACES)(
    "%s: the model sees TS2322 and fixes it; Slack gets owner/repo, path, commit",
    async (surface) => {
      const { result, notifications } = await runExample(
        "01-lint-and-notify.yaml",
        surface,
        "Add the counter",
      );
      expect(result.outcome).toBe("completed");
      const [broken, fixed] = toolResults(result);
      // lsp_diagnose keeps the structured result (hook_notes), so the pipe still reads commit.sha.
      expect(broken!.result).toMatchObject({
        path: "src/counter.ts",
        hook_notes: [
          "[LSP] 1 problem in src/counter.ts:\n" +
            "src/counter.ts:1:14 error TS2322: Type 'string' is not assignable to type 'number'.",
        ],
      });
      expect(fixed!.result).not.toHaveProperty("hook_notes");
      const slack = calls().filter((call) => call.server === "slack");
      expect(calls().filter((call) => call.server === "github")).toHaveLength(2);
      const commits = toolResults(result).map(
        (record) => (record.result as { commit: { sha: string } }).commit.sha,
      );
      expect(slack).toEqual(
        commits.map((sha) => ({
          server: "slack",
          tool: "send_message",
          args: { channel: "#deploy", text: `acme/app - src/counter.ts\ncommit: ${sha}\n` },
        })),
      );
      expect(notifications.filter((note) => note.tag === "diagnostics").map((note) => note.level)).toEqual([
        "error",
        "info",
      ]);
    },
    60_000,
  );
});

describe("pipeline 2: a nested array element into another tool", () => {
  it.each(SURFACES)(
    "%s: {{tool.result.hits.0.title}} and friends reach notion.page.create",
    async (surface) => {
      const { result } = await runExample("02-search-to-notion.yaml", surface, "Find posts about hooks");
      expect(result.outcome).toBe("completed");
      expect(calls()).toEqual([
        { server: "search", tool: "elastic", args: { query: "agent hooks" } },
        {
          server: "notion",
          tool: "page.create",
          args: {
            title: "Hooks in depth: agent hooks",
            url: "https://docs.example/hooks",
            tags: '["hooks","agents"]',
          },
        },
      ]);
    },
  );
});

describe("pipeline 3: the whole result as JSON, to mcp.<server>.<tool>", () => {
  it.each(SURFACES)("%s: {{tool.result}} is the whole output; extra is literal", async (surface) => {
    const { result } = await runExample("03-archive-whole-result.yaml", surface, "Search for hooks");
    expect(result.outcome).toBe("completed");
    const searched = toolResults(result)[0]!.result as string;
    const archived = calls().find((call) => call.server === "archive");
    expect(archived).toEqual({
      server: "archive",
      tool: "log",
      args: { message: "mcp_search_elastic completed", payload: searched, note: "{{kept as written}}" },
    });
    const payload = JSON.parse(archived!.args.payload as string);
    expect(payload.total).toBe(2);
    expect(payload.hits[0].url).toBe("https://docs.example/hooks");
  });
});

describe("pipeline 4: gate downstream on upstream error", () => {
  it.each(SURFACES)(
    "%s: a commit builds and is announced; a dry run raises and stops the chain",
    async (surface) => {
      const { result, logger } = await runExample(
        "04-gate-on-upstream-error.yaml",
        surface,
        "Commit, then dry-run",
      );
      expect(result.outcome).toBe("completed");
      const sha = (toolResults(result)[0]!.result as { commit: { sha: string } }).commit.sha;
      // The pipes are inspect hooks: they never hold the run up, so the two calls' chains may
      // interleave; what matters is what each downstream tool received.
      const sorted = (list: Call[]) => list.map((call) => JSON.stringify(call)).sort();
      expect(sorted(calls().filter((call) => call.server !== "github"))).toEqual(
        sorted([
          { server: "ci", tool: "trigger_build", args: { commit_sha: sha } },
          {
            server: "slack",
            tool: "send_message",
            args: { channel: "#ci", text: `Build started for ${sha}` },
          },
          // The dry run: CI is called with no commit, fails, raises: Slack is never called.
          { server: "ci", tool: "trigger_build", args: { commit_sha: "" } },
        ]),
      );
      expect(logger.records.map((line) => line.message)).toContainEqual(
        expect.stringContaining(
          'chain action 0 (pipe) failed: pipe to ci.trigger_build (hook "build_then_announce"): no commit to build',
        ),
      );
    },
  );
});

describe("sub-agents in code (examples/tools/sub-agents.ts)", () => {
  it("the parent's policy denies fs.delete_file inside the sub-agent; scope self stays out", async () => {
    writeFileSync(join(dir, "keep.txt"), "precious");
    const seen: string[] = [];
    const result = await subAgents(dir, seen);
    expect(result.outcome).toBe("completed");
    expect(readFileSync(join(dir, "keep.txt"), "utf8")).toBe("precious");
    expect(result.steps[0]!.toolResults[0]!.result).toBe(
      "I could not delete keep.txt: deleting files is not allowed.",
    );
    expect(seen).toEqual(["main agents.cleaner"]);
  });
});

describe("docs/tools.md shows only what the suite runs", () => {
  const docs = readFileSync(join(HERE, "../../docs/tools.md"), "utf8");
  const blocks = [...docs.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, body]) => ({
    lang,
    body: body!,
  }));

  it("every pipeline block is its example file, word for word", () => {
    const pipelines = blocks.filter((block) => block.body.startsWith("# examples/tools/"));
    expect(pipelines).toHaveLength(4);
    for (const block of pipelines) {
      const file = block.body.split("\n")[0]!.slice("# examples/tools/".length);
      expect(block.body, file).toBe(readFileSync(join(HERE, file), "utf8"));
    }
  });

  it("every other YAML block is a valid config", () => {
    const others = blocks.filter((block) => block.lang === "yaml" && !block.body.startsWith("# examples/"));
    expect(others.length).toBeGreaterThan(0);
    for (const block of others) {
      const errors = validateConfigText(block.body, "docs/tools.md").issues.filter(
        (issue) => issue.severity === "error",
      );
      expect(errors, block.body).toEqual([]);
    }
  });

  it("the TypeScript block is the sub-agents example's region, word for word", () => {
    const source = readFileSync(join(HERE, "sub-agents.ts"), "utf8");
    const region = /\/\/ #region sub-agents\n([\s\S]*?)\n\s*\/\/ #endregion sub-agents/.exec(source)![1]!;
    const indent = /^ */.exec(region)![0].length;
    const dedented = region
      .split("\n")
      .map((line) => line.slice(indent))
      .join("\n");
    const typescript = blocks.filter((block) => block.lang === "ts");
    expect(typescript.map((block) => block.body.trimEnd())).toEqual([dedented]);
  });
});
