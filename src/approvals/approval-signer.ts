/**
 * Signing approvals that travel outside the process. The HMAC key comes
 * from the environment (`HOOKWISE_APPROVAL_KEY`) or the agent's options; it lives only in
 * this closure — never on an object that is logged, traced or serialised.
 *
 * An approval token is `hwa1.<claims>.<mac>`: base64url JSON claims (run, approval id,
 * qualified tool name, binding hash, expiry) and an HMAC-SHA256 over `hwa1.<claims>`. A
 * client can carry it back to approve exactly that call; changing one byte voids it.
 */
import { nodeCrypto } from "../deps/node-crypto.js";
import { ApprovalError } from "../errors/approval-error.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import { canonicalJson } from "./canonical-json.js";

export const APPROVAL_KEY_ENV = "HOOKWISE_APPROVAL_KEY";
const MIN_KEY_BYTES = 16;
const PREFIX = "hwa1";

export interface ApprovalTokenClaims {
  /** The run the approval belongs to. */
  run: string;
  /** The approval id. */
  id: string;
  /** The qualified tool name (for people reading a token; the binding is what counts). */
  tool: string;
  /** The binding hash of the call: qualified name + effective arguments. */
  binding: string;
  /** Expiry, epoch ms. */
  exp: number;
}

export interface ApprovalSigner {
  /** HMAC-SHA256 of `text`, hex. */
  mac(text: string): string;
  sign(claims: ApprovalTokenClaims): string;
  /** The claims of a token this key signed; throws ApprovalError("forged") otherwise. Expiry is the caller's. */
  verify(token: string): ApprovalTokenClaims;
}

/** Whether a string looks like an approval token (rather than an approval id). */
export function isApprovalToken(text: string): boolean {
  return text.startsWith(`${PREFIX}.`);
}

/**
 * The signer for a key given in code, else the one in the environment, else `undefined`
 * (no tokens; approvals are bound by a plain SHA-256). A key shorter than 16 bytes is a
 * construction-time error (a HookwiseError: the CLI prints its one line); the message never
 * shows the key.
 */
export function resolveApprovalSigner(
  key: string | Uint8Array | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ApprovalSigner | undefined {
  const fromEnv = env[APPROVAL_KEY_ENV];
  const raw = key ?? (fromEnv === undefined || fromEnv === "" ? undefined : fromEnv);
  if (raw === undefined) return undefined;
  const bytes = typeof raw === "string" ? Buffer.from(raw, "utf8") : Buffer.from(raw);
  if (bytes.length < MIN_KEY_BYTES) {
    const source = key === undefined ? `${APPROVAL_KEY_ENV}` : "approvals.key";
    throw new HookwiseError(
      `${source} is too short (${bytes.length} bytes): use at least ${MIN_KEY_BYTES} random bytes, e.g. \`openssl rand -hex 32\``,
    );
  }
  return createApprovalSigner(bytes);
}

export function createApprovalSigner(key: Uint8Array): ApprovalSigner {
  const secret = Buffer.from(key);
  const mac = (text: string) => nodeCrypto().createHmac("sha256", secret).update(text).digest();
  return {
    mac: (text) => mac(text).toString("hex"),
    sign(claims) {
      const body = `${PREFIX}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
      return `${body}.${mac(body).toString("base64url")}`;
    },
    verify(token) {
      const forged = (why: string) =>
        new ApprovalError({ reason: "forged", message: `approval token refused: ${why}` });
      const parts = token.split(".");
      if (parts.length !== 3 || parts[0] !== PREFIX) throw forged("it is not an hwa1 token");
      const body = `${parts[0]}.${parts[1]}`;
      const given = Buffer.from(parts[2]!, "base64url");
      const expected = mac(body);
      if (given.length !== expected.length || !nodeCrypto().timingSafeEqual(given, expected)) {
        throw forged("its signature does not match (forged, altered, or signed with another key)");
      }
      let claims: unknown;
      try {
        claims = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8"));
      } catch {
        throw forged("its claims are not JSON");
      }
      const value = claims as Partial<ApprovalTokenClaims>;
      if (
        typeof value.run !== "string" ||
        typeof value.id !== "string" ||
        typeof value.tool !== "string" ||
        typeof value.binding !== "string" ||
        typeof value.exp !== "number"
      ) {
        throw forged("its claims are incomplete");
      }
      return value as ApprovalTokenClaims;
    },
  };
}

/**
 * What an approval is bound to: the qualified tool name and the effective arguments, as
 * canonical JSON, hashed — HMAC-SHA256 with the key when there is one (so whoever can
 * edit the store but lacks the key cannot re-bind an approval), SHA-256 otherwise. With a
 * key the MAC also covers the approval's expiry (`expiresAt`, epoch ms): moving the stored
 * expiry voids the binding, so an expired approval cannot be revived by editing the store.
 */
export function bindingHash(
  qualifiedName: string,
  args: unknown,
  signer: ApprovalSigner | undefined,
  expiresAt?: number,
): string {
  if (signer) {
    const text = canonicalJson({ tool: qualifiedName, args, expiresAt: expiresAt ?? null });
    return `hmac-sha256:${signer.mac(text)}`;
  }
  const text = canonicalJson({ tool: qualifiedName, args });
  return `sha256:${nodeCrypto().createHash("sha256").update(text).digest("hex")}`;
}
