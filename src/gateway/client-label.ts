/**
 * The client as it named itself in `initialize` (name and version), as the gateway prints,
 * records and shows it: at most 200 characters, every control character (newline, carriage
 * return, ESC, bidirectional overrides) written as a visible escape, so a client's name can
 * neither start a line of the gateway's log that looks like its own nor act on a terminal.
 */

const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escaped(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** `client` ("name version", or its name alone with `withVersion: false`), made safe to show. */
export function clientLabel(
  client: { name: string; version: string } | undefined,
  withVersion = true,
): string | undefined {
  if (client === undefined) return undefined;
  const label = withVersion ? `${client.name} ${client.version}` : client.name;
  return label.slice(0, 200).replace(CONTROL, escaped);
}
