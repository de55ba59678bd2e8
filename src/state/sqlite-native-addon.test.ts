import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type BundledDriver, bundledDriverFits, nativeAddonIn, sqliteDriver } from "./sqlite-native-addon.js";
import { SqliteStore } from "./sqlite-store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function packageWith(...addons: string[]): string {
  const root = mkdtempSync(join(tmpdir(), "hookwise-addon-"));
  dirs.push(root);
  for (const addon of addons) {
    mkdirSync(join(root, addon, ".."), { recursive: true });
    writeFileSync(join(root, addon), "");
  }
  return root;
}

describe("the SQLite driver's native addon", () => {
  it("is the build/Release file when no place searched before it holds one", () => {
    const root = packageWith("build/Release/better_sqlite3.node");
    expect(nativeAddonIn(root)).toBe(join(root, "build", "Release", "better_sqlite3.node"));
    expect(
      nativeAddonIn(packageWith("build/Debug/better_sqlite3.node", "build/Release/better_sqlite3.node")),
    ).toBe(undefined);
    expect(nativeAddonIn(packageWith("build/better_sqlite3.node", "build/Release/better_sqlite3.node"))).toBe(
      undefined,
    );
    expect(nativeAddonIn(packageWith("lib/binding/node-v115-linux-x64/better_sqlite3.node"))).toBe(undefined);
  });

  it("is loaded by a store as the driver would find it, without the bindings package's search", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookwise-addon-store-"));
    dirs.push(dir);
    const store = new SqliteStore({ path: join(dir, "state.db") });
    await store.set("k", { v: 1 });
    expect(await store.get("k")).toEqual({ v: 1 });
    await store.close();
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    expect(loaded.filter((file) => file.endsWith(`${sep}better_sqlite3.node`))).toEqual([
      expect.stringMatching(/[\\/]better-sqlite3[\\/]build[\\/]Release[\\/]better_sqlite3\.node$/),
    ]);
    expect(loaded.filter((file) => file.includes(`${sep}bindings${sep}`))).toEqual([]);
  });

  it("runs hookwise's copy of the driver's JavaScript only with the addon of the same version", () => {
    const root = packageWith("build/Release/better_sqlite3.node");
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "better-sqlite3", version: "12.1.0" }));
    const copy = (version: string) => ({ version }) as unknown as BundledDriver;
    expect(bundledDriverFits(copy("12.1.0"), root)).toBe(true);
    expect(bundledDriverFits(copy("12.1.1"), root)).toBe(false);
    expect(bundledDriverFits(copy("12.1.0"), packageWith("build/Release/better_sqlite3.node"))).toBe(false);
    // Run from the sources there is no copy: the installed package, with its addon.
    const installed = createRequire(import.meta.url)("better-sqlite3");
    expect(sqliteDriver()).toEqual({
      Driver: installed,
      nativeBinding: expect.stringMatching(/build[\\/]Release[\\/]better_sqlite3\.node$/),
    });
  });
});
