/**
 * Colours of the live trace: on when stdout is a terminal, off under `NO_COLOR` (any
 * non-empty value), forced on by `FORCE_COLOR` (except `0` or `false`), which wins over
 * the terminal check but not over `NO_COLOR`.
 */
export function useColor(
  isTTY: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  return Boolean(isTTY) && env.TERM !== "dumb";
}

export interface Palette {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

const code = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export const colors: Palette = {
  bold: code(1, 22),
  dim: code(2, 22),
  red: code(31, 39),
  green: code(32, 39),
  yellow: code(33, 39),
  cyan: code(36, 39),
  magenta: code(35, 39),
};

const same = (text: string) => text;
export const noColors: Palette = {
  bold: same,
  dim: same,
  red: same,
  green: same,
  yellow: same,
  cyan: same,
  magenta: same,
};
