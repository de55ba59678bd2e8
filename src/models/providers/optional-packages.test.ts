/**
 * Optional packages load at first use: a missing one does not stop anything that does not
 * need it, and the feature that needs it fails with the package to install. Absence is
 * simulated by loading the package under a name that does not exist.
 */
import { afterEach, describe, expect, it } from "vitest";
import { HookwiseError } from "../../errors/hookwise-error.js";
import { MissingPackageError, redirectOptionalPackage } from "../../errors/optional-package.js";
import { LanguageServer } from "../../lsp/language-server.js";
import { SqliteStore } from "../../state/sqlite-store.js";
import { McpConnection } from "../../tools/mcp/mcp-connection.js";
import { createModel } from "../create-model.js";

const undo: (() => void)[] = [];
afterEach(() => {
  for (const restore of undo.splice(0)) restore();
});

function absent(pkg: string): void {
  undo.push(redirectOptionalPackage(pkg, `${pkg}-not-installed`));
}

async function rejection(promise: PromiseLike<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("provider packages load on the first request", () => {
  it.each([
    ["anthropic:claude-sonnet-4-5", "@ai-sdk/anthropic", "anthropic"],
    ["openai:gpt-4.1-mini", "@ai-sdk/openai", "openai"],
    ["openai-chat:gpt-4.1-mini", "@ai-sdk/openai", "openai-chat"],
    ["google:gemini-2.5-flash", "@ai-sdk/google", "google"],
    ["ollama:llama3.2", "@ai-sdk/openai-compatible", "ollama"],
  ])(
    "%s without %s: making the model names the package (a load error, never a request's)",
    (spec, pkg, name) => {
      absent(pkg);
      let error: Error | undefined;
      try {
        createModel(spec, {
          env: { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k", GOOGLE_GENERATIVE_AI_API_KEY: "k" },
        });
      } catch (thrown) {
        error = thrown as Error;
      }
      expect(error).toBeInstanceOf(MissingPackageError);
      expect(HookwiseError.isInstance(error)).toBe(true);
      expect(error!.message).toBe(
        `The ${name} provider needs the package ${pkg}, which is not installed: npm install ${pkg}`,
      );
      expect((error as MissingPackageError).packageName).toBe(pkg);
    },
  );

  it("installed, the package loads once and the model reports the provider's own name", async () => {
    const model = createModel("anthropic:claude-sonnet-4-5", { env: { ANTHROPIC_API_KEY: "k" } });
    expect(model.provider).toBe("anthropic.messages");
    const urls = await (model as { supportedUrls: PromiseLike<Record<string, RegExp[]>> }).supportedUrls;
    expect(Object.keys(urls).length).toBeGreaterThan(0); // the real model's answer
    expect(model.provider).toBe("anthropic.messages");
  });
});

describe("other optional packages", () => {
  it("the SQLite store without better-sqlite3 names the package", () => {
    absent("better-sqlite3");
    const error = (() => {
      try {
        new SqliteStore({ path: ":memory:" });
      } catch (thrown) {
        return thrown as Error;
      }
      throw new Error("expected a throw");
    })();
    expect(error).toBeInstanceOf(MissingPackageError);
    expect(error.message).toBe(
      "The SQLite state store needs the package better-sqlite3, which is not installed: npm install better-sqlite3",
    );
  });

  it("an MCP toolset without @modelcontextprotocol/sdk names the package at its first connection", async () => {
    absent("@modelcontextprotocol/sdk");
    const connection = new McpConnection({ command: "node", args: ["-e", ""] }, { label: "m" });
    const error = await rejection(connection.client());
    expect(error.message).toBe(
      "MCP toolsets need the package @modelcontextprotocol/sdk, which is not installed: npm install @modelcontextprotocol/sdk",
    );
    expect(connection.starts).toBe(0); // no server was started
    await connection.close();
  });

  it("lsp_diagnose without vscode-languageserver-protocol names the package", async () => {
    absent("vscode-languageserver-protocol");
    const server = new LanguageServer(
      { id: "x", command: "node", args: ["-e", ""], extensions: [".ts"] },
      "/",
    );
    const error = await rejection(server.diagnose("/a.ts", "const a = 1;"));
    expect(error.message).toContain(
      "lsp_diagnose needs the package vscode-languageserver-protocol, which is not installed: npm install vscode-languageserver-protocol",
    );
    await server.close();
  });
});
