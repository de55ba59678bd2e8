/**
 * One `hookwise hook` call in this process: the event given on its stdin (a JSON value, or
 * text as it is), its stdout and stderr kept.
 */
import { Readable } from "node:stream";
import { type HookCommandOptions, hookCommand } from "../../src/cli/commands/hook-command.js";
import type { CliIO } from "../../src/cli/types.js";

export interface HookCall {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

export async function callHook(
  config: string,
  options: HookCommandOptions,
  input: unknown,
): Promise<HookCall> {
  const out = { stdout: "", stderr: "" };
  const printer = (key: "stdout" | "stderr") => ({
    line: (text: string) => {
      out[key] += `${text}\n`;
    },
    write: (text: string) => {
      out[key] += text;
    },
  });
  const io: CliIO = { stdout: printer("stdout"), stderr: printer("stderr"), isTTY: false };
  const text = typeof input === "string" ? input : JSON.stringify(input);
  const code = await hookCommand(config, options, io, Readable.from([Buffer.from(text)]));
  const { stdout, stderr } = out;
  let json: unknown;
  try {
    json = stdout.trim() ? JSON.parse(stdout) : undefined;
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}
