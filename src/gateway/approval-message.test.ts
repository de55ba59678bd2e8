import { describe, expect, it } from "vitest";
import { registerSecret } from "../secrets/secret-registry.js";
import { approvalMessage } from "./approval-message.js";

describe("the message a client's user approves a call by", () => {
  it("masks the configured secrets in the reason as in the arguments: a hook's reason may quote them", () => {
    const secret = "approval-message-secret-5c1f9e2a";
    registerSecret(secret, "DEPLOY_TOKEN");
    const message = approvalMessage({
      qualifiedName: "up.deploy",
      reason: `deploying with ${secret} needs a human`,
      args: { token: secret },
    });
    expect(message).not.toContain(secret);
    expect(message).toBe(
      'Allow the tool call up.deploy? deploying with [redacted DEPLOY_TOKEN] needs a human\nArguments: {"token":"[redacted DEPLOY_TOKEN]"}',
    );
  });
});
