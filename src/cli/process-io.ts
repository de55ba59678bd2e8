/**
 * The CLI's output on the process's own descriptors, and every line of it masked: what
 * `main` and `hookwise hook`'s own start (`hook-main.ts`) print through.
 */
import { writeSync } from "node:fs";
import { printableOutput } from "../config/printable.js";
import { MaskedTextStream } from "../models/masked-text-stream.js";
import { maskSecrets, registeredSecrets } from "../secrets/secret-registry.js";
import { protocolStdout } from "./keep-stdout-for-protocol.js";
import { useColor } from "./terminal/colors.js";
import type { CliIO } from "./types.js";

/**
 * A printer on file descriptor `fd` (1 or 2), written with `writeSync`: taking
 * `process.stdout` first would load the terminal and network stream modules, which
 * `hookwise validate` and `--help` have no other use for. Where the process's own streams
 * write synchronously too (files, terminals, pipes on Linux), the two keep their order
 * when user code prints as well.
 */
function fdPrinter(fd: 1 | 2, stream: () => NodeJS.WriteStream): CliIO["stdout"] {
  let closed = false;
  let queued: NodeJS.WriteStream | undefined;
  const write = (text: string) => {
    if (closed) return;
    // Once the stream holds bytes, everything after goes behind them, in order.
    if (queued) return void queued.write(text);
    const bytes = Buffer.from(text);
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The reader went away (`hookwise schema | head`): nothing more to print.
      if (code === "EPIPE") closed = true;
      // A descriptor someone made non-blocking, full for now: its stream waits for the reader.
      else if (code === "EAGAIN") {
        queued = stream();
        queued.on("error", (streamError: NodeJS.ErrnoException) => {
          if (streamError.code !== "EPIPE") throw streamError;
          closed = true;
        });
        queued.write(bytes.subarray(done));
      } else throw error;
    }
  };
  return { line: (text) => write(`${text}\n`), write, lost: () => closed };
}

export function ioFromProcess(): CliIO {
  return {
    stdout: fdPrinter(1, protocolStdout),
    stderr: fdPrinter(2, () => process.stderr),
    // Asked when a command needs them (run, resume), for the same reason as above.
    get isTTY() {
      return process.getBuiltinModule("node:tty").isatty(0);
    },
    get color() {
      return useColor(process.getBuiltinModule("node:tty").isatty(1), process.env);
    },
  };
}

/**
 * Every line printed with the configured API keys masked (they are masked at the source
 * too). Output is masked as one text per stream, not piece by piece: a key the model
 * repeats arrives a few characters per delta, so an end that could begin a key waits for
 * the next piece (or `flush`, when the command is done). A control character from data
 * that no command escaped is escaped here (`printableOutput`), whatever the command.
 */
export function maskedIO(io: CliIO): CliIO & { flush(): void } {
  let color: boolean | undefined;
  const masked = (printer: CliIO["stdout"]) => {
    const text = new MaskedTextStream(maskSecrets, registeredSecrets);
    const write = (piece: string) => {
      const out = text.push(printableOutput(piece, () => (color ??= io.color === true)));
      if (out !== "") printer.write(out);
    };
    const flush = () => {
      const out = text.flush();
      if (out !== "") printer.write(out);
    };
    return {
      line: (line: string) => write(`${line}\n`),
      write,
      flush,
      lost: () => printer.lost?.() === true,
    };
  };
  const stdout = masked(io.stdout);
  const stderr = masked(io.stderr);
  return {
    stdout,
    stderr,
    // Read when asked, as the process's own are.
    get isTTY() {
      return io.isTTY;
    },
    get color() {
      return io.color;
    },
    ...(io.ask ? { ask: io.ask } : {}),
    ...(io.readInput ? { readInput: io.readInput } : {}),
    flush() {
      stdout.flush();
      stderr.flush();
    },
  };
}
