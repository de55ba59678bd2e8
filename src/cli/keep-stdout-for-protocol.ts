/**
 * Where stdout is a protocol (`hookwise mcp` over stdio, `hookwise hook`'s answer to a
 * harness), what the config's own code prints with `console` — a tool module, a hook — goes
 * to stderr: a line on stdout would corrupt the protocol. A harness that cannot read a
 * hook's answer runs the call as if no hook had answered.
 */
export function keepStdoutForProtocol(): void {
  const toStderr = (...values: unknown[]) => console.error(...values);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.dirxml = toStderr;
  console.dir = (value: unknown) => console.error(value);
}
