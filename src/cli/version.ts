/** The installed hookwise's version, read from its package.json (beside `dist/` or `src/`). */
import { packageDir } from "./package-dir.js";

export function packageVersion(): string {
  return packageDir()?.version ?? "unknown";
}
