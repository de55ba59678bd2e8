// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the syntax these examples show the user
/**
 * Credentials of an OpenAPI toolset, keyed by the document's security scheme names:
 *
 *     auth:
 *       bearerAuth: { token: "${BILLING_TOKEN}" }          # http bearer (and OAuth 2 tokens)
 *       apiKeyAuth: { key: "${BILLING_KEY}" }              # apiKey, in header, query or cookie
 *       basicAuth: { username: bot, password: "${BILLING_PASSWORD}" }
 *
 * Secrets (`token`, `key`, `password`) must come from the environment (`${VAR}`); a
 * variable that is unset is an error naming it. Each operation gets the first alternative
 * of its `security` whose schemes all have credentials here.
 */
import { nearest } from "../../../errors/nearest.js";
import { registerSecret } from "../../../secrets/secret-registry.js";
import { EnvVariableError, envReferences, expandEnv, unsetVariableProblem } from "../../expand-env.js";
import type { ApiOperation, SecurityRequirement, SecurityScheme } from "../api-description.js";
import { OpenApiToolsetError } from "../openapi-toolset-error.js";

export interface AuthSetting {
  token?: string;
  key?: string;
  username?: string;
  password?: string;
}

export type Credential = { in: "header" | "query" | "cookie"; name: string; value: string };

export interface ApiCredentials {
  /** Per scheme name, what to send. */
  bySchemes: ReadonlyMap<string, Credential>;
  /** Every secret value, as sent: redacted from whatever the toolset returns or throws. */
  secrets: string[];
}

const FIELDS: Record<
  "bearer" | "basic" | "apiKey",
  { fields: (keyof AuthSetting)[]; example: string; what: string }
> = {
  bearer: { fields: ["token"], example: '{ token: "${API_TOKEN}" }', what: "a bearer token scheme" },
  basic: {
    fields: ["username", "password"],
    example: '{ username: bot, password: "${API_PASSWORD}" }',
    what: "an HTTP basic scheme",
  },
  apiKey: { fields: ["key"], example: '{ key: "${API_KEY}" }', what: "an API key scheme" },
};
const SECRET_FIELDS = new Set<keyof AuthSetting>(["token", "key", "password"]);

export function resolveCredentials(
  toolset: string,
  auth: Readonly<Record<string, AuthSetting>>,
  schemes: Readonly<Record<string, SecurityScheme>>,
  env: NodeJS.ProcessEnv,
): ApiCredentials {
  const bySchemes = new Map<string, Credential>();
  const secrets: string[] = [];
  for (const [name, setting] of Object.entries(auth)) {
    const fail = (
      at: (string | number)[],
      problem: string,
      extra: { expected?: string; suggestion?: string } = {},
    ): never => {
      throw new OpenApiToolsetError({ toolset, at: ["auth", name, ...at], problem, ...extra });
    };
    const scheme = schemes[name];
    if (!scheme) {
      const declared = Object.keys(schemes);
      const suggestion = nearest(name, declared);
      fail([], `the document declares no security scheme "${name}"`, {
        expected: declared.length
          ? `one of ${declared.join(", ")}`
          : "no auth: the document declares no security schemes (use headers: for a fixed header)",
        ...(suggestion ? { suggestion } : {}),
      });
    }
    if (scheme!.kind === "unsupported") {
      fail([], `"${name}" is ${scheme!.what}, which OpenAPI toolsets cannot send`, {
        expected: "a bearer, basic or API key scheme",
      });
    }
    const shape = FIELDS[scheme!.kind as keyof typeof FIELDS];
    const given = (Object.keys(setting) as (keyof AuthSetting)[]).filter(
      (field) => setting[field] !== undefined,
    );
    const wrong = given.find((field) => !shape.fields.includes(field));
    const missing = shape.fields.find((field) => setting[field] === undefined);
    if (wrong || missing)
      fail([], `"${name}" is ${shape.what}: give ${shape.fields.join(" and ")}`, { expected: shape.example });
    const values: Partial<Record<keyof AuthSetting, string>> = {};
    for (const field of shape.fields) {
      const raw = setting[field]!;
      if (SECRET_FIELDS.has(field) && envReferences(raw).length === 0) {
        fail([field], `a ${field} is read from the environment, never written in the config`, {
          expected: `"\${VARIABLE}" (e.g. ${shape.example})`,
        });
      }
      try {
        values[field] = expandEnv(raw, `${name}.${field}`, env);
      } catch (error) {
        if (!EnvVariableError.isInstance(error)) throw error;
        const { problem, expected } = unsetVariableProblem(error.variable);
        fail([field], problem, { expected });
      }
      if (SECRET_FIELDS.has(field)) {
        secrets.push(values[field]!);
        for (const variable of envReferences(raw)) if (env[variable]) secrets.push(env[variable]!);
      }
    }
    if (scheme!.kind === "bearer")
      bySchemes.set(name, { in: "header", name: "authorization", value: `Bearer ${values.token}` });
    else if (scheme!.kind === "basic") {
      const encoded = Buffer.from(`${values.username}:${values.password}`).toString("base64");
      secrets.push(encoded);
      // Servers echo the header they were sent: the pair's encoding is a secret of its own.
      registerSecret(encoded, `${name} basic auth`);
      bySchemes.set(name, { in: "header", name: "authorization", value: `Basic ${encoded}` });
    } else if (scheme!.kind === "apiKey") {
      bySchemes.set(name, { in: scheme!.in, name: scheme!.name, value: values.key! });
    }
  }
  return { bySchemes, secrets };
}

/**
 * What an operation sends: the credentials of the first alternative of its requirement
 * that can be met (`{}` — auth optional — is met by nothing); `undefined` when none can.
 */
export function credentialsFor(
  security: readonly SecurityRequirement[],
  credentials: ApiCredentials,
): Credential[] | undefined {
  if (security.length === 0) return [];
  for (const alternative of security) {
    const names = Object.keys(alternative);
    if (names.every((name) => credentials.bySchemes.has(name)))
      return names.map((name) => credentials.bySchemes.get(name)!);
  }
  return undefined;
}

/**
 * The operation without the parameters its credentials occupy: a document that also lists
 * `api_key` as a query parameter does not let the model set (or shadow) the toolset's key.
 * Names compare case-insensitively, as some servers read them.
 */
export function withoutCredentialParameters(
  operation: ApiOperation,
  sent: readonly Credential[],
): ApiOperation {
  if (sent.length === 0) return operation;
  const parameters = operation.parameters.filter(
    (parameter) =>
      !sent.some(
        (credential) =>
          credential.in === parameter.in && credential.name.toLowerCase() === parameter.name.toLowerCase(),
      ),
  );
  return parameters.length === operation.parameters.length ? operation : { ...operation, parameters };
}
