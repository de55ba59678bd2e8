/**
 * Runs documentation modules one after another in this process (started by
 * test/docs/code-blocks.test.ts with tsx): each in a fresh empty working directory, or the
 * one given after a tab (`file<TAB>dir`), with a deadline. Prints one JSON line after a marker: the modules that threw, with the error.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const RESULT_MARKER = "@@doc-modules@@";
const DEADLINE_MS = 30_000;

const failures: { file: string; error: string }[] = [];
let current = "";
process.on("unhandledRejection", (reason) => {
  failures.push({
    file: current,
    error: `unhandled rejection: ${String((reason as Error)?.stack ?? reason)}`,
  });
});

const home = process.cwd();
for (const argument of process.argv.slice(2)) {
  const [file, given] = argument.split("\t") as [string, string | undefined];
  current = file;
  const dir = given ?? mkdtempSync(join(tmpdir(), "hookwise-doc-run-"));
  process.chdir(dir);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      import(pathToFileURL(file).href),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`did not finish within ${DEADLINE_MS} ms`)), DEADLINE_MS);
      }),
    ]);
  } catch (error) {
    failures.push({ file, error: String((error as Error)?.stack ?? error) });
  } finally {
    clearTimeout(timer);
    process.chdir(home);
    if (!given) rmSync(dir, { recursive: true, force: true });
  }
}
process.stdout.write(`\n${RESULT_MARKER}${JSON.stringify(failures)}\n`);
process.exit(0);
