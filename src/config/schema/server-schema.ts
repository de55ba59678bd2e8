/** The config's `server:` section: settings of `hookwise serve` (ignored by the other commands). */
import { lazy } from "../../deps/load-package.js";
import { z } from "../../deps/zod.js";

export const serverSchema = lazy(() =>
  z
    .strictObject({
      session_idle: z
        .number()
        .positive()
        .default(1800)
        .describe("seconds without activity after which a session ends (session_end fires); default 1800"),
      busy_wait: z
        .number()
        .min(0)
        .default(5)
        .describe("seconds a message to a busy session waits for its turn before a 409; default 5"),
      body_limit: z
        .number()
        .int()
        .positive()
        .default(1_048_576)
        .describe("largest request body in bytes; default 1048576 (1 MiB)"),
      cors: z
        .array(z.string().min(1))
        .optional()
        .describe(
          'origins allowed to call the API from a browser (e.g. "https://app.example.com"); default none',
        ),
      drain: z
        .number()
        .min(0)
        .default(10)
        .describe("seconds a shutdown (SIGTERM) waits for running runs before aborting them; default 10"),
    })
    .describe("Settings of `hookwise serve`"),
);

export type ServerConfig = z.output<ReturnType<typeof serverSchema>>;
