export {
  isSupportedModel,
  type LanguageModel,
  type LanguageModelV4Like,
  type ModelTurn,
} from "./language-model.js";
export { loadScript } from "./load-script.js";
export { ScriptExhaustedError } from "./script-exhausted-error.js";
export {
  type ScriptEntry,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedToolCall,
  type ScriptStep,
  scriptedModel,
} from "./scripted-model.js";
