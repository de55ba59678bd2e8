/**
 * docs/deploy.md says what the code does: its config blocks validate, the options it names
 * exist, and the commands of its recipe are hookwise commands.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validateConfigText } from "../../src/config/check/validate-config.js";
import { RedisStore } from "../../src/state/redis-store.js";

const PAGE = readFileSync(fileURLToPath(new URL("../../docs/deploy.md", import.meta.url)), "utf8");
const blocks = (lang: string) =>
  [...PAGE.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, "g"))].map((match) => match[1]!);

describe("docs/deploy.md", () => {
  it("every config block validates", () => {
    const yaml = blocks("yaml");
    expect(yaml.length).toBeGreaterThanOrEqual(2);
    for (const text of yaml) {
      const result = validateConfigText(
        `${text}\nagents:\n  - { id: main, model: "scripted:./s.yaml" }\n`,
        "deploy.md",
      );
      expect(result.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    }
  });

  it("a config url with a password is refused, pointing at HOOKWISE_STATE_URL", () => {
    const result = validateConfigText(
      'runtime:\n  state: { kind: redis, url: "redis://app:hunter2@redis.internal:6379" }\n',
      "config.yaml",
    );
    const messages = result.issues.map((issue) => issue.message).join("\n");
    expect(messages).toContain(
      "no user or password in the config file: put the whole URL in the HOOKWISE_STATE_URL",
    );
  });

  it("the recipe's hookwise commands and flags exist", async () => {
    const { main } = await import("../../src/cli/main.js");
    const lines = blocks("sh")
      .join("\n")
      .split("\n")
      .filter((line) => line.startsWith("hookwise "));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) {
      const command = line.split(" ")[1]!;
      let help = "";
      const print = {
        line: (text: string) => {
          help += `${text}
`;
        },
        write: (text: string) => {
          help += text;
        },
      };
      expect(await main([command, "--help"], { stdout: print, stderr: print, isTTY: false }), line).toBe(0);
      for (const flag of line.match(/--[a-z]+/g) ?? []) expect(help, `${command} ${flag}`).toContain(flag);
    }
  });

  it("the library example's options are RedisStore's", async () => {
    const store = new RedisStore({ url: "redis://127.0.0.1:6379", prefix: "support-bot:" });
    expect(store.prefix).toBe("support-bot:");
    expect(store.location).toBe("redis://127.0.0.1:6379");
    await store.close();
  });
});
