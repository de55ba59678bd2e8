/**
 * Where stdout is a protocol (`hookwise mcp` over stdio, `hookwise hook`'s answer to a
 * harness), what the config's own code prints — a tool module, a hook, with `console` or
 * `process.stdout` — goes to stderr: a line on stdout would corrupt the protocol. A harness
 * that cannot read a hook's answer runs the call as if no hook had answered. (A module that
 * writes to file descriptor 1 itself is not caught.)
 */

/** `process.stdout` as Node defines it (a getter that makes the stream at first use). */
const nodeStdout = Object.getOwnPropertyDescriptor(process, "stdout");

export function keepStdoutForProtocol(): void {
  const toStderr = (...values: unknown[]) => console.error(...values);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.dirxml = toStderr;
  console.dir = (value: unknown) => console.error(value);
  // Not the stream itself (making it loads the terminal and network modules): where it is read.
  if (nodeStdout?.configurable)
    Object.defineProperty(process, "stdout", {
      configurable: true,
      enumerable: nodeStdout.enumerable ?? true,
      get: () => process.stderr,
    });
}

/** The process's real stdout, where the protocol is written (`process.stdout` may be stderr now). */
export function protocolStdout(): NodeJS.WriteStream {
  if (nodeStdout?.get) return nodeStdout.get.call(process) as NodeJS.WriteStream;
  return (nodeStdout?.value as NodeJS.WriteStream | undefined) ?? process.stdout;
}
