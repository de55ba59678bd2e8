/**
 * `hookwise run` suspends, `hookwise resume` continues — each a real child process
 * (`node --import tsx src/cli/main.ts …`) sharing only the SQLite store beside the config
 * (`.hookwise/state.db`). The side effect of `bank.pay` is counted in files, so "ran once"
 * is checked where it happens. Every child is awaited (or killed and awaited); temp dirs
 * are removed. A scripted model keeps its place in the script per session, across processes:
 * the resumed run's model answers with the entry after the one that asked for the tool.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { RunResult } from "../../loop/run-result.js";
import { main } from "../main.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const MAIN = join(ROOT, "src/cli/main.ts");
const KEY = "cli-test-approval-key-0123456789";

interface CliOutput {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const running = new Set<ChildProcess>();
const dirs: string[] = [];

afterEach(async () => {
  // Nothing outlives a test: kill what is left and wait for it, then remove the folders.
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((done) => {
          child.once("close", () => done());
          child.kill("SIGKILL");
        }),
    ),
  );
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function start(dir: string, args: string[], env: Record<string, string> = {}) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.HOOKWISE_APPROVAL_KEY) delete childEnv.HOOKWISE_APPROVAL_KEY;
  delete childEnv.HOOKWISE_MODEL;
  // Run from the repository (where `tsx` resolves); the config path is absolute, and its
  // store `.hookwise/state.db` sits beside it in the temp folder.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", MAIN, ...args.map((arg) => (arg === "hookwise.yaml" ? join(dir, arg) : arg))],
    {
      cwd: ROOT,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  running.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const done = new Promise<CliOutput>((resolvePromise, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      running.delete(child);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}

const hookwise = (dir: string, args: string[], env?: Record<string, string>) => start(dir, args, env).done;

const BANK = `
import { appendFileSync, existsSync } from "node:fs";
const here = new URL(".", import.meta.url);
export const pay = {
  description: "Pay an amount",
  inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
  async execute({ amount }) {
    appendFileSync(new URL("started.log", here), amount + "\\n");
    if (existsSync(new URL("block", here))) await new Promise((resolve) => setTimeout(resolve, 60000));
    appendFileSync(new URL("paid.log", here), amount + "\\n");
    return "paid " + amount;
  },
};
`;

function bankDir(options: { approvalTtl?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-approvals-"));
  dirs.push(dir);
  writeFileSync(join(dir, "bank.mjs"), BANK);
  writeFileSync(
    join(dir, "hookwise.yaml"),
    [
      "models:",
      "  default: scripted:./script.yaml",
      "toolsets:",
      "  bank: { kind: module, path: ./bank.mjs }",
      "runtime:",
      ...(options.approvalTtl ? [`  approval_ttl: ${options.approvalTtl}`] : []),
      "  policies:",
      "    - { decision: ask_user, tool: bank.pay }",
      "agents:",
      "  - id: teller",
      "    instructions: You pay invoices.",
      "    tools: [bank.*]",
      "",
    ].join("\n"),
  );
  const lines = (name: string) =>
    existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8").trim().split("\n") : [];
  return {
    dir,
    /** The scripted model's answers for the next process. */
    script(yaml: string) {
      writeFileSync(join(dir, "script.yaml"), yaml);
    },
    started: () => lines("started.log"),
    paid: () => lines("paid.log"),
  };
}

const PAY = (amount: number) => `- tool_calls: [{ name: bank_pay, args: { amount: ${amount} } }]\n`;
const SAY = (text: string) => `- text: "${text}"\n`;

function parse(output: CliOutput): RunResult {
  try {
    return JSON.parse(output.stdout) as RunResult;
  } catch {
    throw new Error(`not JSON (exit ${output.code}):\n${output.stdout}\n${output.stderr}`);
  }
}

function toolResults(result: RunResult): string[] {
  return result.messages
    .filter((message) => message.role === "tool")
    .flatMap((message) => message.content as { type: string; output: { value: unknown } }[])
    .map((part) => String(part.output.value));
}

describe("hookwise run → suspended → hookwise resume, across processes", () => {
  test("ask_user on bank.pay suspends (exit 5); resume --approve in a new process runs it once; a second resume is refused", async () => {
    const bank = bankDir();
    bank.script(PAY(5) + SAY("Paid invoice 17."));
    const suspended = await hookwise(bank.dir, [
      "run",
      "hookwise.yaml",
      "--prompt",
      "pay invoice 17",
      "--json",
    ]);
    expect(suspended.code).toBe(5);
    const result = parse(suspended);
    expect(result.outcome).toBe("suspended");
    expect(result.approvals).toHaveLength(1);
    expect(result.approvals![0]).toMatchObject({
      qualifiedName: "bank.pay",
      toolName: "bank_pay",
      args: { amount: 5 },
    });
    expect(bank.started()).toEqual([]);
    const id = result.approvals![0]!.id;

    const resumed = await hookwise(bank.dir, [
      "resume",
      "hookwise.yaml",
      "--run",
      result.runId,
      "--approve",
      id,
      "--json",
    ]);
    expect(resumed.code).toBe(0);
    const done = parse(resumed);
    expect(done).toMatchObject({ outcome: "completed", text: "Paid invoice 17.", runId: result.runId });
    expect(toolResults(done)).toEqual(["paid 5"]);
    expect(bank.paid()).toEqual(["5"]);

    const again = await hookwise(bank.dir, [
      "resume",
      "hookwise.yaml",
      "--run",
      result.runId,
      "--approve",
      "all",
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`run "${result.runId}" is not suspended`);
    expect(bank.started()).toEqual(["5"]);
  }, 60_000);

  test("human output lists the pending approval with its args and the resume command", async () => {
    const bank = bankDir();
    bank.script(PAY(5));
    const suspended = await hookwise(bank.dir, ["run", "hookwise.yaml", "--prompt", "pay"]);
    expect(suspended.code).toBe(5);
    expect(suspended.stdout).toMatch(/■ suspended after 1 step — awaiting approval: bank\.pay/);
    expect(suspended.stdout).toMatch(
      /\[[0-9a-f-]{36}\] bank\.pay \(bank_pay\) \{"amount":5\} — policy ask_user "bank\.pay"/,
    );
    expect(suspended.stdout).toMatch(
      /approve: hookwise resume \S+hookwise\.yaml --run [0-9a-f-]{36} --approve [0-9a-f-]{36}/,
    );
    expect(existsSync(join(bank.dir, ".hookwise", "state.db"))).toBe(true);
  }, 60_000);

  test("--deny --reason: the model gets the reason as the tool result, the tool never runs", async () => {
    const bank = bankDir();
    bank.script(PAY(500) + SAY("Understood: not paid."));
    const result = parse(await hookwise(bank.dir, ["run", "hookwise.yaml", "--prompt", "pay", "--json"]));
    const denied = await hookwise(bank.dir, [
      "resume",
      "hookwise.yaml",
      "--run",
      result.runId,
      "--deny",
      result.approvals![0]!.id,
      "--reason",
      "over the monthly budget",
      "--json",
    ]);
    expect(denied.code).toBe(0);
    expect(toolResults(parse(denied))).toEqual(['tool "bank.pay" was not approved: over the monthly budget']);
    expect(bank.started()).toEqual([]);
  }, 60_000);

  test("signed tokens: pay 5's approval cannot authorise pay 500; a forged token is refused; the run stays resumable", async () => {
    const bank = bankDir();
    const env = { HOOKWISE_APPROVAL_KEY: KEY };
    bank.script(PAY(5));
    const five = parse(
      await hookwise(bank.dir, ["run", "hookwise.yaml", "--prompt", "pay 5", "--json"], env),
    );
    // Another session: its script starts at the first entry.
    bank.script(PAY(500) + SAY("Paid 500."));
    const big = parse(
      await hookwise(bank.dir, ["run", "hookwise.yaml", "--prompt", "pay 500", "--json"], env),
    );
    const fiveToken = five.approvals![0]!.token!;
    const bigToken = big.approvals![0]!.token!;
    expect(bigToken).toMatch(/^hwa1\./);

    const crossed = await hookwise(
      bank.dir,
      ["resume", "hookwise.yaml", "--run", big.runId, "--approve", fiveToken],
      env,
    );
    expect(crossed.code).toBe(1);
    expect(crossed.stderr).toContain("approval token refused");

    const [prefix, claims, mac] = bigToken.split(".");
    const edited = JSON.parse(Buffer.from(claims!, "base64url").toString());
    edited.exp += 365 * 24 * 3600 * 1000;
    const forged = `${prefix}.${Buffer.from(JSON.stringify(edited)).toString("base64url")}.${mac}`;
    const refused = await hookwise(
      bank.dir,
      ["resume", "hookwise.yaml", "--run", big.runId, "--approve", forged],
      env,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("signature does not match");
    const wrongKey = await hookwise(
      bank.dir,
      ["resume", "hookwise.yaml", "--run", big.runId, "--approve", bigToken],
      {
        HOOKWISE_APPROVAL_KEY: "a-different-key-a-different-key",
      },
    );
    expect(wrongKey.code).toBe(1);
    expect(bank.started()).toEqual([]);

    const genuine = await hookwise(
      bank.dir,
      ["resume", "hookwise.yaml", "--run", big.runId, "--approve", bigToken, "--json"],
      env,
    );
    expect(genuine.code).toBe(0);
    expect(bank.paid()).toEqual(["500"]);
    // The key never reaches the output.
    for (const output of [crossed, refused, genuine])
      expect(output.stdout + output.stderr).not.toContain(KEY);
  }, 90_000);

  test("an expired approval is refused (exit 1, nothing runs); it can still be denied", async () => {
    const bank = bankDir({ approvalTtl: 0.2 });
    bank.script(PAY(5) + SAY("Not paid."));
    const result = parse(await hookwise(bank.dir, ["run", "hookwise.yaml", "--prompt", "pay", "--json"]));
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 300));
    const late = await hookwise(bank.dir, [
      "resume",
      "hookwise.yaml",
      "--run",
      result.runId,
      "--approve",
      "all",
    ]);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain("expired");
    const denied = await hookwise(bank.dir, [
      "resume",
      "hookwise.yaml",
      "--run",
      result.runId,
      "--deny",
      "all",
    ]);
    expect(denied.code).toBe(0);
    expect(bank.started()).toEqual([]);
  }, 60_000);

  test("killed mid-tool, then resumed twice: the tool ran once; the model learns its outcome is unknown", async () => {
    const bank = bankDir();
    bank.script(PAY(5) + SAY("I will check whether the payment went through."));
    const result = parse(await hookwise(bank.dir, ["run", "hookwise.yaml", "--prompt", "pay", "--json"]));
    writeFileSync(join(bank.dir, "block"), "");

    const doomed = start(bank.dir, [
      "resume",
      "hookwise.yaml",
      "--run",
      result.runId,
      "--approve",
      "all",
      "--json",
    ]);
    const deadline = Date.now() + 30_000;
    while (bank.started().length === 0) {
      if (Date.now() > deadline) throw new Error("the tool never started");
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 25));
    }
    doomed.child.kill("SIGKILL");
    expect((await doomed.done).signal).toBe("SIGKILL");
    rmSync(join(bank.dir, "block")); // were it run again, it would now finish and be counted

    const second = await hookwise(bank.dir, [
      "resume",
      "hookwise.yaml",
      "--run",
      result.runId,
      "--approve",
      "all",
      "--json",
    ]);
    expect(second.code).toBe(0);
    const settled = parse(second);
    expect(settled.outcome).toBe("completed");
    expect(toolResults(settled)[0]).toContain("outcome unknown");
    const third = await hookwise(bank.dir, [
      "resume",
      "hookwise.yaml",
      "--run",
      result.runId,
      "--approve",
      "all",
    ]);
    expect(third.code).toBe(1);
    expect(bank.started()).toEqual(["5"]);
    expect(bank.paid()).toEqual([]);
  }, 90_000);
});

describe("hookwise resume, in-process", () => {
  async function cli(args: string[], answers: string[] = [], isTTY = false) {
    const out = { stdout: "", stderr: "" };
    const printer = (name: keyof typeof out) => ({
      line: (text: string) => {
        out[name] += `${text}\n`;
      },
      write: (text: string) => {
        out[name] += text;
      },
    });
    const code = await main(args, {
      stdout: printer("stdout"),
      stderr: printer("stderr"),
      isTTY,
      ask: async () => answers.shift() ?? "n",
    });
    return { code, ...out };
  }

  test("usage mistakes exit 2: no decision, a --reason without a --deny, no --run", async () => {
    const bank = bankDir();
    const config = join(bank.dir, "hookwise.yaml");
    expect((await cli(["resume", config, "--run", "r1"])).code).toBe(2);
    expect((await cli(["resume", config, "--run", "r1", "--approve", "a", "--reason", "x"])).code).toBe(2);
    expect((await cli(["resume", config, "--approve", "all"])).code).toBe(2);
    const unknown = await cli(["resume", config, "--run", "no-such-run", "--approve", "all"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no suspended run "no-such-run"');
  });

  test("an unknown approval id is refused (exit 1): nothing runs and the run stays resumable", async () => {
    const bank = bankDir();
    const config = join(bank.dir, "hookwise.yaml");
    bank.script(PAY(5) + SAY("Paid."));
    const suspended = await cli(["run", config, "--prompt", "pay", "--json"]);
    expect(suspended.code).toBe(5);
    const { runId, approvals } = JSON.parse(suspended.stdout) as RunResult;
    const unknown = await cli(["resume", config, "--run", runId, "--approve", "not-an-approval"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no pending approval "not-an-approval" (pending: ${approvals![0]!.id})`);
    // Only the reason: no "resume run …" header for a resume that never started.
    expect(unknown.stdout).toBe("");
    expect(bank.started()).toEqual([]);
    const approved = await cli(["resume", config, "--run", runId, "--approve", "all"]);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`hookwise · resume run ${runId} · agent`);
    expect(bank.paid()).toEqual(["5"]);
  });

  test("on a terminal the CLI asks: y approves; any other text denies with that reason", async () => {
    const bank = bankDir();
    const config = join(bank.dir, "hookwise.yaml");
    bank.script(PAY(5) + SAY("Paid."));
    const approved = await cli(["run", config, "--prompt", "pay"], ["y"], true);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain("? approval needed: bank.pay (called as bank_pay)");
    expect(approved.stdout).toContain('arguments: {"amount":5}');
    expect(bank.paid()).toEqual(["5"]);

    bank.script(PAY(9) + SAY("Not paid."));
    const denied = await cli(["run", config, "--prompt", "pay"], ["", "not this month"], true);
    expect(denied.code).toBe(0);
    expect(denied.stdout).toContain('bank_pay (error): tool "bank.pay" was not approved: not this month');
    expect(bank.paid()).toEqual(["5"]);
  });
});
