export { classifyError, retryAfterMs } from "./classify-error.js";
export {
  type CreateModelOptions,
  createModel,
  type ModelSpec,
  type ModelSpecObject,
  parseModelString,
} from "./create-model.js";
export {
  isSupportedModel,
  type LanguageModel,
  type LanguageModelV4Like,
  type ModelTurn,
} from "./language-model.js";
export { loadScript } from "./load-script.js";
export { ModelError } from "./model-error.js";
export { type ModelSettings, modelLabel, modelSettings, withModelSettings } from "./model-settings.js";
export {
  MissingApiKeyError,
  ModelSpecError,
  type ProviderDefinition,
  type ProviderInput,
  providerNames,
  registerProvider,
} from "./providers/index.js";
export { ScriptExhaustedError } from "./script-exhausted-error.js";
export {
  isScriptedModel,
  type ScriptEntry,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedToolCall,
  type ScriptPosition,
  type ScriptStep,
  scriptedModel,
} from "./scripted-model.js";
