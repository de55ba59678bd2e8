import { readFileSync } from "node:fs";
import { ConfigFileError } from "./config-error.js";

/** A config (or test) file's text; a file that cannot be read is a ConfigFileError saying why. */
export function readConfigFile(path: string, file = path): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new ConfigFileError(
      path,
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : String(code ?? error),
    );
  }
}
