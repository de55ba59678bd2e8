export { environmentSecrets, SECRET_VARIABLE } from "./environment-secrets.js";
export { type Secret, type SecretMasker, secretMasker } from "./secret-masker.js";
export {
  hasSecrets,
  maskSecrets,
  maskSecretsIn,
  registeredSecrets,
  registerSecret,
  SHORTEST_SECRET,
} from "./secret-registry.js";
