/**
 * Signed decisions in the approval inbox. A call waiting in the inbox is decided by writing
 * one record to the shared store, and whatever can write to that store — an agent whose
 * shell holds `HOOKWISE_STATE_URL`, as a coding agent's does — could write "approved" for its
 * own call. With a key pair, only the holder of the private key can: `hookwise serve`, given
 * `HOOKWISE_INBOX_PRIVATE_KEY`, signs each decision over the call it showed (id, tool,
 * arguments, session, the answer); a waiting process given `HOOKWISE_INBOX_PUBLIC_KEY`
 * checks the signature against the call it posted itself, and takes a decision that is not
 * signed, or signed for other arguments, as a denial. Ed25519 keys, PEM or the base64 of
 * their DER (`openssl genpkey -algorithm ed25519`).
 */
import { nodeCrypto } from "../deps/node-crypto.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import { canonicalJson } from "./canonical-json.js";

export const INBOX_PRIVATE_KEY_ENV = "HOOKWISE_INBOX_PRIVATE_KEY";
export const INBOX_PUBLIC_KEY_ENV = "HOOKWISE_INBOX_PUBLIC_KEY";

/** What a signature covers: the call as posted, and the answer. */
export interface SignedCall {
  id: string;
  toolName: string;
  qualifiedName: string;
  args: unknown;
  sessionId: string;
}

export type InboxSign = (call: SignedCall, decision: { approved: boolean; reason?: string }) => string;
export type InboxVerify = (
  call: SignedCall,
  decision: { approved: boolean; reason?: string },
  signature: string,
) => boolean;

function signedText(call: SignedCall, decision: { approved: boolean; reason?: string }): Buffer {
  const { id, toolName, qualifiedName, args, sessionId } = call;
  return Buffer.from(
    canonicalJson({
      id,
      toolName,
      qualifiedName,
      args,
      sessionId,
      approved: decision.approved,
      reason: decision.reason,
    }),
  );
}

function keyText(text: string, kind: "PRIVATE" | "PUBLIC"): string {
  const trimmed = text.trim();
  if (trimmed.startsWith("-----BEGIN")) return trimmed;
  return `-----BEGIN ${kind} KEY-----\n${trimmed}\n-----END ${kind} KEY-----`;
}

function badKey(variable: string, why: string): HookwiseError {
  return new HookwiseError(
    `${variable} is not an Ed25519 ${variable === INBOX_PRIVATE_KEY_ENV ? "private" : "public"} key (${why}): make one with \`openssl genpkey -algorithm ed25519 -out inbox.pem\` (public: \`openssl pkey -in inbox.pem -pubout\`)`,
  );
}

/** The signer of `HOOKWISE_INBOX_PRIVATE_KEY`, or undefined when it is not set. */
export function inboxSignerFromEnv(env: NodeJS.ProcessEnv = process.env): InboxSign | undefined {
  const text = env[INBOX_PRIVATE_KEY_ENV];
  if (!text?.trim()) return undefined;
  const crypto = nodeCrypto();
  let key: import("node:crypto").KeyObject;
  try {
    key = crypto.createPrivateKey(keyText(text, "PRIVATE"));
  } catch (error) {
    throw badKey(INBOX_PRIVATE_KEY_ENV, (error as Error).message);
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw badKey(INBOX_PRIVATE_KEY_ENV, `a ${key.asymmetricKeyType} key`);
  return (call, decision) => crypto.sign(null, signedText(call, decision), key).toString("base64");
}

/** The check of `HOOKWISE_INBOX_PUBLIC_KEY`, or undefined when it is not set. */
export function inboxVerifierFromEnv(env: NodeJS.ProcessEnv = process.env): InboxVerify | undefined {
  const text = env[INBOX_PUBLIC_KEY_ENV];
  if (!text?.trim()) return undefined;
  const crypto = nodeCrypto();
  let key: import("node:crypto").KeyObject;
  try {
    key = crypto.createPublicKey(keyText(text, "PUBLIC"));
  } catch (error) {
    throw badKey(INBOX_PUBLIC_KEY_ENV, (error as Error).message);
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw badKey(INBOX_PUBLIC_KEY_ENV, `a ${key.asymmetricKeyType} key`);
  return (call, decision, signature) => {
    try {
      return crypto.verify(null, signedText(call, decision), key, Buffer.from(signature, "base64"));
    } catch {
      return false;
    }
  };
}
