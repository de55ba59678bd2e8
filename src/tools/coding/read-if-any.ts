import { readFile } from "node:fs/promises";

/** The file's text, or null when there is none. */
export async function readIfAny(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
