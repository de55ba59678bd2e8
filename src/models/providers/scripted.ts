import { resolve } from "node:path";
import { loadScript } from "../load-script.js";
import { scriptedModel } from "../scripted-model.js";
import type { ProviderDefinition } from "./provider-definition.js";

/** `scripted:<file>`: replays a YAML/JSONL script offline (relative to the config's folder). */
export const scriptedProvider: ProviderDefinition = {
  name: "scripted",
  description: "offline replay of a YAML/JSONL script (no LLM is called)",
  package: "hookwise",
  create: ({ modelId, baseDir }) => {
    const path = resolve(baseDir, modelId);
    return scriptedModel(loadScript(path), { modelId, source: path });
  },
};
