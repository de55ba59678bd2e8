/** The user's cache folder for hookwise: `$XDG_CACHE_HOME/hookwise`, else `~/.cache/hookwise`. */
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  // A relative XDG_CACHE_HOME is to be ignored (the base directory specification says so).
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".cache"), "hookwise");
}
