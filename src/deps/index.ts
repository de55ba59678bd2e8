export { lazy, loadPackage } from "./load-package.js";
export { picomatch } from "./picomatch.js";
export { yaml } from "./yaml.js";
export { z } from "./zod.js";
