/** `hookwise schema`: the JSON Schema of the config file, for editors (yaml-language-server). */
import { configJsonSchema } from "../../config/schema/json-schema.js";
import type { CliIO } from "../types.js";

export function schemaCommand(io: CliIO): number {
  io.stdout.line(JSON.stringify(configJsonSchema(), null, 2));
  return 0;
}
