/**
 * Captures the hook payloads of a real harness into a folder: every event the harness lists
 * is hooked with `capture-hook-stdin.mjs`, and the fake model has the harness run
 * `echo hi > marker.txt`, then answer. Paths are scrubbed to `/home/user` and
 * `/home/user/project`, ports to `PORT` (as in test/fixtures/harnesses/).
 *
 *   node --import tsx test/support/harnesses/capture-payloads.ts claude|codex|gemini <out dir>
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeAnthropic } from "./fake-anthropic.js";
import { startFakeGemini } from "./fake-gemini.js";
import { startFakeOpenAiResponses } from "./fake-openai-responses.js";
import type { HarnessName } from "./install.js";
import { runClaude } from "./run-claude.js";
import { runCodex } from "./run-codex.js";
import { runGemini } from "./run-gemini.js";

const EVENTS: Record<HarnessName, readonly string[]> = {
  claude: [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PermissionRequest",
    "PermissionDenied",
    "MessageDisplay",
  ],
  codex: [
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "UserPromptSubmit",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "Interrupt",
  ],
  gemini: [
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "AfterAgent",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
    "Notification",
    "PreCompress",
    "SessionStart",
    "SessionEnd",
  ],
};

const captureHook = fileURLToPath(new URL("./capture-hook-stdin.mjs", import.meta.url));
const slug = (path: string) => path.replace(/[^A-Za-z0-9]/g, "-");

async function capture(harness: HarnessName, out: string): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), `hookwise-capture-${harness}-`));
  const home = join(root, "home");
  const cwd = join(root, "project");
  const raw = join(root, "raw");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const entry = (event: string) => ({
    hooks: [
      {
        type: "command",
        command: `'${process.execPath}' '${captureHook}' '${raw}' ${event}`,
        timeout: harness === "gemini" ? 30_000 : 30,
      },
    ],
  });
  const hooks = Object.fromEntries(EVENTS[harness].map((event) => [event, [entry(event)]]));
  try {
    let result: { exitCode: number | null; stderr: string };
    if (harness === "claude") {
      mkdirSync(join(home, ".claude"), { recursive: true });
      writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify({ hooks }));
      const fake = await startFakeAnthropic([
        { tool: "Bash", input: { command: "echo hi > marker.txt", description: "write marker" } },
        { text: "All done." },
      ]);
      result = await runClaude({ cwd, home, prompt: "Write hi to marker.txt", fake }).finally(() =>
        fake.close(),
      );
    } else if (harness === "codex") {
      mkdirSync(join(cwd, ".codex"), { recursive: true });
      writeFileSync(join(cwd, ".codex", "hooks.json"), JSON.stringify({ hooks }));
      const fake = await startFakeOpenAiResponses([
        { tool: "exec_command", input: { cmd: "echo hi > marker.txt" } },
        { text: "All done." },
      ]);
      result = await runCodex({ cwd, home, prompt: "Write hi to marker.txt", fake }).finally(() =>
        fake.close(),
      );
    } else {
      const fake = await startFakeGemini([
        { tool: "run_shell_command", input: { command: "echo hi > marker.txt" } },
        { text: "All done." },
      ]);
      result = await runGemini({
        cwd,
        home,
        prompt: "Write hi to marker.txt",
        fake,
        settings: { hooks },
      }).finally(() => fake.close());
    }
    if (result.exitCode !== 0)
      throw new Error(`${harness} exited ${result.exitCode}:\n${result.stderr.slice(-2000)}`);
    mkdirSync(out, { recursive: true });
    const scrub = (text: string) =>
      [
        [join(root, "home"), "/home/user"],
        [join(root, "project"), "/home/user/project"],
        [slug(join(root, "project")), "-home-user-project"],
        [root, "/tmp/test"],
      ]
        .reduce((acc, [from, to]) => acc.replaceAll(from!, to!), text)
        .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT");
    for (const file of readdirSync(raw).filter((name) => !name.endsWith(".env.json"))) {
      const payload = JSON.parse(scrub(readFileSync(join(raw, file), "utf8")));
      writeFileSync(join(out, file), `${JSON.stringify(payload, null, 2)}\n`);
      console.log(join(out, file));
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const [harness, out] = process.argv.slice(2);
if (!harness || !(harness in EVENTS) || !out) {
  console.error("usage: capture-payloads.ts claude|codex|gemini <out dir>");
  process.exit(2);
}
await capture(harness as HarnessName, out);
