/**
 * `@ai-sdk/provider`'s values (its error classes), loaded at their first use: most processes
 * never meet a provider's error (a harness's hook answers without any model), and importing
 * the package costs each of them its resolution and compilation.
 */
import { lazy, loadPackage } from "../deps/load-package.js";

export const aiSdkProvider = lazy(() => loadPackage<typeof import("@ai-sdk/provider")>("@ai-sdk/provider"));
