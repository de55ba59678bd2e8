import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { optionalPackageFolder, redirectOptionalPackage } from "./optional-package.js";

const dirs: string[] = [];
const undo: (() => void)[] = [];
afterEach(() => {
  for (const restore of undo.splice(0)) restore();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Three `node_modules` folders, nearest first, with `files` written (paths relative to the root). */
function folders(...files: string[]): { root: string; lookIn: string[] } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "hookwise-pkg-")));
  dirs.push(root);
  const lookIn = ["a", "b", "c"].map((name) => join(root, name, "node_modules"));
  for (const dir of lookIn) mkdirSync(dir, { recursive: true });
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), "{}");
  }
  return { root, lookIn };
}

describe("optionalPackageFolder: where require finds a package, without resolving it", () => {
  it("is the installed package's folder require resolves, its links resolved", () => {
    const entry = createRequire(import.meta.url).resolve("better-sqlite3");
    expect(optionalPackageFolder("better-sqlite3")).toBe(realpathSync(dirname(dirname(entry))));
  });

  it("is the first folder holding the package, through a symbolic link", () => {
    const { root, lookIn } = folders("b/node_modules/pkg/package.json", "c/node_modules/pkg/package.json");
    expect(optionalPackageFolder("pkg", lookIn)).toBe(join(root, "b", "node_modules", "pkg"));
    symlinkSync(join(root, "c", "node_modules", "pkg"), join(lookIn[0]!, "pkg"));
    expect(optionalPackageFolder("pkg", lookIn)).toBe(join(root, "c", "node_modules", "pkg"));
  });

  it("is undefined where require would load something else first: a file of that name, a folder that is no package", () => {
    // A file `pkg.js` is loaded before a folder `pkg` beside it.
    const file = folders("b/node_modules/pkg.js", "b/node_modules/pkg/package.json");
    expect(optionalPackageFolder("pkg", file.lookIn)).toBe(undefined);
    // A folder without a package.json stops the search (require would try its index).
    const bare = folders("a/node_modules/pkg/index.js", "b/node_modules/pkg/package.json");
    expect(optionalPackageFolder("pkg", bare.lookIn)).toBe(undefined);
    expect(optionalPackageFolder("pkg", folders().lookIn)).toBe(undefined);
  });

  it("passes over a node_modules that cannot be looked into, as require does", () => {
    // A file named node_modules (stat says ENOTDIR), or a folder this user may not search
    // (EACCES): require goes on to the next folder; so must this, not throw.
    const { root, lookIn } = folders("b/node_modules/pkg/package.json");
    rmSync(lookIn[0]!, { recursive: true });
    writeFileSync(lookIn[0]!, "");
    expect(optionalPackageFolder("pkg", lookIn)).toBe(join(root, "b", "node_modules", "pkg"));
  });

  it("follows a redirect: a package redirected to a name not installed has no folder", () => {
    undo.push(redirectOptionalPackage("better-sqlite3", "better-sqlite3-not-installed"));
    expect(optionalPackageFolder("better-sqlite3")).toBe(undefined);
  });
});
