/** The installed hookwise's own folder: the one holding its package.json, above `dist/` or `src/`. */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function packageDir(): { dir: string; version: string } | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === "hookwise" && manifest.version) return { dir, version: manifest.version };
    } catch {
      // No package.json here: look one folder up.
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
