/** yaml, loaded at its first use (a config, a script or an OpenAPI document is read). */
import type * as Yaml from "yaml";
import { lazy, loadPackage } from "./load-package.js";

export const yaml: () => typeof Yaml = lazy(() => loadPackage<typeof Yaml>("yaml", "yaml"));
