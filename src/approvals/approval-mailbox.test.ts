import { generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { registerSecret } from "../secrets/secret-registry.js";
import { MemoryStore } from "../state/memory-store.js";
import { ApprovalMailbox } from "./approval-mailbox.js";
import { inboxSignerFromEnv, inboxVerifierFromEnv } from "./inbox-signature.js";

const stores: MemoryStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** A memory store standing for a shared one (the mailbox refuses a store of one process). */
function mailbox(): { box: ApprovalMailbox; store: MemoryStore } {
  const store = new MemoryStore();
  Object.defineProperty(store, "sharing", { value: "shared" });
  stores.push(store);
  return { box: new ApprovalMailbox(store), store };
}

const call = (waitMs: number) => ({
  toolName: "Bash",
  qualifiedName: "Bash",
  args: { command: "deploy" },
  reason: "deploys need a human",
  sessionId: "s1",
  waiter: "Claude Code (hookwise hook)",
  waitMs,
});

describe("ApprovalMailbox", () => {
  it("masks registered secrets in the posted arguments: absent from the listing and the store", async () => {
    const secret = "mailbox-secret-4f9d2a7c1e";
    registerSecret(secret, "DEPLOY_TOKEN");
    const { box, store } = mailbox();
    const posted = await box.post({ ...call(5_000), args: { command: `deploy --token ${secret}` } });
    const [listed] = await box.list();
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(JSON.stringify(listed!.args)).toContain("[redacted DEPLOY_TOKEN]");
    const stored = await Promise.all((await store.keys("approval-")).map((key) => store.get(key)));
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(posted.id).toBe(listed!.id);
  });

  it("masks registered secrets in the reason, which a hook may have templated from the arguments", async () => {
    const secret = "mailbox-reason-secret-8b3e61d0";
    registerSecret(secret, "DEPLOY_TOKEN");
    const { box, store } = mailbox();
    await box.post({ ...call(5_000), reason: `deploy --token ${secret} needs a human` });
    const [listed] = await box.list();
    expect(listed!.reason).toBe("deploy --token [redacted DEPLOY_TOKEN] needs a human");
    const stored = await Promise.all((await store.keys("approval-")).map((key) => store.get(key)));
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it("refuses a store only its own process sees: nobody else could decide", async () => {
    const store = new MemoryStore();
    stores.push(store);
    await expect(new ApprovalMailbox(store).post(call(1_000))).rejects.toThrow(
      /approvals: inbox needs a state store that hookwise serve can share/,
    );
  });

  it("takes exactly one of many concurrent decisions, and the waiter sees that one", async () => {
    const { box } = mailbox();
    const posted = await box.post(call(10_000));
    const waiting = box.wait(posted);
    const results = await Promise.all([
      box.decide(posted.id, { approved: true }),
      box.decide(posted.id, { approved: false, reason: "no" }),
      box.decide(posted.id, { approved: true }),
    ]);
    const won = results.filter((result) => result.status === "decided");
    expect(won).toHaveLength(1);
    expect(results.filter((result) => result.status === "already_decided")).toHaveLength(2);
    const decision = await waiting;
    const winner = results.indexOf(won[0]!);
    expect(decision).toMatchObject({ approved: winner !== 1, by: "inbox" });
    expect(await box.list()).toEqual([]);
  });

  it("denies when no decision comes in time; a later decision changes nothing", async () => {
    const { box } = mailbox();
    const posted = await box.post(call(300));
    const decision = await box.wait(posted);
    expect(decision).toMatchObject({ approved: false, by: "timeout" });
    expect(decision.reason).toContain(posted.id);
    expect(await box.decide(posted.id, { approved: true })).toEqual({ status: "already_decided" });
    expect(await box.decide("wait_unknown", { approved: true })).toEqual({ status: "unknown" });
  });

  it("a cancelled call stops waiting at once, denied", async () => {
    const { box } = mailbox();
    const posted = await box.post(call(60_000));
    const controller = new AbortController();
    const started = Date.now();
    const waiting = box.wait(posted, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect(await waiting).toMatchObject({ approved: false, by: "cancelled" });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await box.decide(posted.id, { approved: true })).toEqual({ status: "already_decided" });
  });

  it("is woken by the store's notification, not only by polling", async () => {
    const { box } = mailbox();
    const posted = await box.post(call(30_000));
    const waiting = box.wait(posted);
    // Let the poll back off to its longest pause first.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const decidedAt = Date.now();
    await box.decide(posted.id, { approved: true });
    await waiting;
    expect(Date.now() - decidedAt).toBeLessThan(200);
  });

  describe("with the inbox's key pair", () => {
    const pair = () => {
      const { privateKey, publicKey } = generateKeyPairSync("ed25519");
      return {
        sign: inboxSignerFromEnv({
          HOOKWISE_INBOX_PRIVATE_KEY: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        })!,
        // The base64 of the DER, as an environment variable holds it on one line.
        verify: inboxVerifierFromEnv({
          HOOKWISE_INBOX_PUBLIC_KEY: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
        })!,
      };
    };

    it("a waiter takes an approval the inbox signed", async () => {
      const { sign, verify } = pair();
      const { store } = mailbox();
      const inbox = new ApprovalMailbox(store, { sign });
      const waiter = new ApprovalMailbox(store, { verify });
      const posted = await waiter.post(call(5_000));
      const waiting = waiter.wait(posted);
      expect((await inbox.decide(posted.id, { approved: true, reason: "go" })).status).toBe("decided");
      expect(await waiting).toMatchObject({ approved: true, by: "inbox", reason: "go" });
    });

    it("an approval written to the store by anything else, or signed by another key, denies", async () => {
      const { verify } = pair();
      const other = pair();
      const { store } = mailbox();
      const waiter = new ApprovalMailbox(store, { verify });
      // Written straight to the store, as a process holding its address could.
      const forged = await waiter.post(call(2_000));
      const waiting = waiter.wait(forged);
      await store.set(`approval-decision:${forged.id}`, { approved: true, by: "inbox", reason: "lgtm" });
      const decision = await waiting;
      expect(decision.approved).toBe(false);
      expect(decision.reason).toBe(
        `an approval of ${forged.id} that HOOKWISE_INBOX_PUBLIC_KEY does not verify (not signed with the inbox's HOOKWISE_INBOX_PRIVATE_KEY, or for other arguments), so it is denied`,
      );
      // Signed, but by another inbox's key.
      const elsewhere = await waiter.post(call(2_000));
      const second = waiter.wait(elsewhere);
      await new ApprovalMailbox(store, { sign: other.sign }).decide(elsewhere.id, { approved: true });
      expect((await second).approved).toBe(false);
    });

    it("the inbox shown other arguments than were posted: its signed approval denies", async () => {
      const { sign, verify } = pair();
      const { store } = mailbox();
      const waiter = new ApprovalMailbox(store, { verify });
      const posted = await waiter.post({ ...call(2_000), args: { command: "deploy --prod" } });
      // The waiting record rewritten in the store: the reviewer sees a harmless command.
      const key = `approval-wait:${posted.id}`;
      await store.set(key, { ...(await store.get<object>(key)), args: { command: "npm test" } });
      const waiting = waiter.wait(posted);
      expect((await new ApprovalMailbox(store, { sign }).decide(posted.id, { approved: true })).status).toBe(
        "decided",
      );
      expect((await waiting).approved).toBe(false);
    });

    it("a key that is not an Ed25519 key is one line saying how to make one", () => {
      expect(() => inboxVerifierFromEnv({ HOOKWISE_INBOX_PUBLIC_KEY: "not a key" })).toThrow(
        /^HOOKWISE_INBOX_PUBLIC_KEY is not an Ed25519 public key \(.*\): make one with `openssl genpkey -algorithm ed25519 -out inbox\.pem`/,
      );
      const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey;
      expect(() =>
        inboxSignerFromEnv({
          HOOKWISE_INBOX_PRIVATE_KEY: rsa.export({ type: "pkcs8", format: "pem" }).toString(),
        }),
      ).toThrow("HOOKWISE_INBOX_PRIVATE_KEY is not an Ed25519 private key (a rsa key)");
    });
  });
});
