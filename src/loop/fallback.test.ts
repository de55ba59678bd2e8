import { describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import {
  createAgent,
  defineHook,
  flow,
  type ScriptStep,
  scriptedModel,
  withModelSettings,
} from "../index.js";

const limited: ScriptStep = { error: { status: 429, message: "rate limited" } };
const model = (id: string, script: ScriptStep[]) => scriptedModel(script, { modelId: id });
const modelsOf = (requests: ReadonlyArray<{ model?: string }>) => requests.map((request) => request.model);

describe("per-model retries and fallback models", () => {
  it.each(SURFACES)(
    "%s: after the primary's retries, the step continues on its fallback",
    async (surface) => {
      const backup = model("backup", [{ text: "from the backup" }]);
      const primary = withModelSettings(model("primary", [limited, limited, { text: "too late" }]), {
        maxRetries: 1,
        fallback: backup,
      });
      const agent = createAgent({ model: primary, maxRetries: 5, retry: { initialDelayMs: 0 } });
      const { result } = await runOn(surface, agent, "hi");
      expect(result.outcome).toBe("completed");
      expect(result.text).toBe("from the backup");
      // The model's own maxRetries (1) beats the agent's (5).
      expect(primary.calls).toHaveLength(2);
      expect(backup.calls).toHaveLength(1);
      expect(modelsOf(result.requests)).toEqual(["scripted:primary", "scripted:primary", "scripted:backup"]);
      expect(result.requests.map((request) => request.attempt)).toEqual([1, 2, 3]);
      expect(result.steps[0]!.attempts).toBe(3);
    },
  );

  it.each(SURFACES)("%s: a billing error falls back at once (not retried)", async (surface) => {
    const backup = model("backup", [{ text: "ok" }]);
    const primary = withModelSettings(
      model("primary", [{ error: { status: 402, message: "payment required" } }]),
      {
        fallback: backup,
      },
    );
    const { result } = await runOn(
      surface,
      createAgent({ model: primary, retry: { initialDelayMs: 0 } }),
      "hi",
    );
    expect(result.outcome).toBe("completed");
    expect(primary.calls).toHaveLength(1);
    expect(modelsOf(result.requests)).toEqual(["scripted:primary", "scripted:backup"]);
  });

  it.each([
    [401, "auth"],
    [400, "bad_request"],
  ])("a %i (%s) does not fall back: another model would not fix the request", async (status, type) => {
    const backup = model("backup", [{ text: "never" }]);
    const primary = withModelSettings(model("primary", [{ error: { status, message: "refused" } }]), {
      fallback: backup,
    });
    const result = await createAgent({ model: primary }).run("hi");
    expect(result.outcome).toBe("error");
    expect(result.reason).toBe(`model scripted:primary failed: ${type} (HTTP ${status}): refused`);
    expect(backup.calls).toHaveLength(0);
  });

  it("fallbacks chain (a → b → c) and never loop back to a model already tried", async () => {
    const c = model("c", [{ text: "c answered" }]);
    const b = withModelSettings(model("b", [limited]), { maxRetries: 0, fallback: c });
    const a = withModelSettings(model("a", [limited]), { maxRetries: 0, fallback: b });
    const chained = await createAgent({ model: a }).run("hi");
    expect(chained.text).toBe("c answered");
    expect(modelsOf(chained.requests)).toEqual(["scripted:a", "scripted:b", "scripted:c"]);

    const x = model("x", [limited]);
    const y = withModelSettings(model("y", [{ error: { status: 503, message: "y is down" } }]), {
      maxRetries: 0,
      fallback: x,
    });
    withModelSettings(x, { maxRetries: 0, fallback: y });
    const looped = await createAgent({ model: x }).run("hi");
    expect(looped.outcome).toBe("error");
    expect(looped.reason).toBe("model scripted:y failed: internal (HTTP 503): y is down");
    expect(x.calls).toHaveLength(1);
    expect(y.calls).toHaveLength(1);
  });

  it("a fallback named by string resolves through the agent's models; an unknown name is an error", async () => {
    const backup = model("backup", [{ text: "named backup" }]);
    const primary = withModelSettings(model("primary", [limited]), { maxRetries: 0, fallback: "backup" });
    const named = await createAgent({ model: primary, models: { backup } }).run("hi");
    expect(named.text).toBe("named backup");

    const orphan = withModelSettings(model("orphan", [limited]), { maxRetries: 0, fallback: "nowhere" });
    const missing = await createAgent({ model: orphan }).run("hi");
    expect(missing.outcome).toBe("error");
    expect(missing.reason).toBe(
      'the fallback of scripted:orphan: model "nowhere" is not known; declare it in the agent\'s models option (or under models: in config)',
    );
  });
});

describe("model_error hooks: retry, fallback, terminate, fail closed", () => {
  it.each(SURFACES)(
    "%s: flow.retry retries an error the classifier would not (within maxRetries)",
    async (surface) => {
      const primary = model("primary", [
        { error: { status: 400, message: "flaky proxy" } },
        { text: "second try" },
      ]);
      const agent = createAgent({
        model: primary,
        retry: { initialDelayMs: 0 },
        hooks: [
          defineHook({
            name: "retry-proxy",
            on: "model_error",
            kind: "transform",
            handler: (event) => (event.error.message === "flaky proxy" ? flow.retry("try again") : undefined),
          }),
        ],
      });
      const { result } = await runOn(surface, agent, "hi");
      expect(result.text).toBe("second try");
      expect(primary.calls).toHaveLength(2);
    },
  );

  it.each(SURFACES)("%s: flow.terminate ends the run, naming the hook", async (surface) => {
    const primary = model("primary", [limited, { text: "never" }]);
    const agent = createAgent({
      model: primary,
      hooks: [
        defineHook({
          name: "no-retries",
          on: "model_error",
          kind: "transform",
          handler: (event) => flow.terminate(`giving up on ${event.error.type}`),
        }),
      ],
    });
    const { result } = await runOn(surface, agent, "hi");
    expect(result).toMatchObject({
      outcome: "terminated",
      reason: "giving up on rate_limit",
      hook: "no-retries",
    });
    expect(primary.calls).toHaveLength(1);
  });

  it.each(SURFACES)(
    "%s: a model_error hook that throws fails closed: no retry, no fallback",
    async (surface) => {
      const backup = model("backup", [{ text: "never" }]);
      const primary = withModelSettings(model("primary", [limited, { text: "never" }]), { fallback: backup });
      const agent = createAgent({
        model: primary,
        retry: { initialDelayMs: 0 },
        hooks: [
          defineHook({
            name: "broken",
            on: "model_error",
            kind: "transform",
            handler: () => {
              throw new Error("hook bug");
            },
          }),
        ],
      });
      const { result } = await runOn(surface, agent, "hi");
      expect(result.outcome).toBe("error");
      expect(result.hook).toBe("broken");
      expect(result.reason).toContain("hook bug");
      expect(primary.calls).toHaveLength(1);
      expect(backup.calls).toHaveLength(0);
    },
  );

  it("the model_error event carries the class, the provider code and the attempt's request", async () => {
    const seen: unknown[] = [];
    const primary = model("primary", [{ error: { status: 429, message: "slow down" } }, { text: "ok" }]);
    await createAgent({
      model: primary,
      retry: { initialDelayMs: 0 },
      hooks: [
        defineHook({
          name: "watch",
          on: "model_error",
          kind: "inspect",
          handler: (event) =>
            void seen.push({ error: event.error, attempt: event.attempt, model: event.request.model }),
        }),
      ],
    }).run("hi");
    expect(seen).toEqual([
      {
        error: { type: "rate_limit", status: 429, message: "slow down", retryable: true },
        attempt: 1,
        model: "scripted:primary",
      },
    ]);
  });
});

describe("flow.fallback from a model_error hook", () => {
  for (const surface of SURFACES) {
    it(`${surface}: falling back between two failing models ends the step (each model once), never loops`, async () => {
      const unauthorized: ScriptStep = { error: { status: 401, message: "bad key" } };
      const primary = model(
        "primary",
        Array.from({ length: 5 }, () => unauthorized),
      );
      const backup = model(
        "backup",
        Array.from({ length: 5 }, () => unauthorized),
      );
      let fired = 0;
      const agent = createAgent({
        model: primary,
        models: { primary, backup },
        hooks: [
          defineHook({
            name: "always-fallback",
            on: "model_error",
            kind: "transform",
            handler: () => {
              fired++;
              return flow.fallback(fired % 2 === 1 ? "backup" : "primary");
            },
          }),
        ],
      });
      const { result } = await runOn(surface, agent, "hi");
      expect(result.outcome).toBe("error");
      expect(primary.calls.length + backup.calls.length).toBe(2);
      expect(fired).toBe(2);
    });
  }
});
