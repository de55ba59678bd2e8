export type { AuthSetting } from "./http/api-credentials.js";
export { OpenApiCallError } from "./openapi-call-error.js";
export { type OpenApiToolset, type OpenApiToolsetOptions, openapiToolset } from "./openapi-toolset.js";
export { OpenApiToolsetError, type SettingPath } from "./openapi-toolset-error.js";
