/**
 * An app that type-checks its libraries too (`strict` without `skipLibCheck`) compiles against
 * hookwise: every package a dependency's declarations import has declarations an install of
 * hookwise brings — its own, or an `@types/` package among hookwise's dependencies (the
 * repository's devDependencies are not installed for a user).
 */
import { readFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};
const options: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
};
const bare = (specifier: string) => !specifier.startsWith(".") && !specifier.startsWith("node:");
/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

describe("the declarations of hookwise's dependencies", () => {
  it("import only packages whose types an install of hookwise brings", () => {
    const missing = new Set<string>();
    for (const dependency of Object.keys(pkg.dependencies)) {
      const entry = ts.resolveModuleName(dependency, join(ROOT, "app.mts"), options, ts.sys).resolvedModule;
      if (!entry?.resolvedFileName.endsWith(".d.ts") && !entry?.resolvedFileName.endsWith(".d.mts")) continue;
      const { importedFiles } = ts.preProcessFile(readFileSync(entry.resolvedFileName, "utf8"), true, true);
      for (const { fileName: specifier } of importedFiles.filter((file) => bare(file.fileName))) {
        const name = packageOf(specifier);
        const resolved = ts.resolveModuleName(
          specifier,
          entry.resolvedFileName,
          options,
          ts.sys,
        ).resolvedModule;
        const typesPackage = `@types/${name.startsWith("@") ? name.slice(1).replace("/", "__") : name}`;
        const fromTypes = resolved?.resolvedFileName.includes(
          `${sep}node_modules${sep}${typesPackage}${sep}`,
        );
        const ownTypes = resolved !== undefined && !fromTypes;
        if (ownTypes || name === dependency) continue;
        if (!(typesPackage in pkg.dependencies))
          missing.add(`${dependency} imports "${specifier}": add ${typesPackage} to dependencies`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
