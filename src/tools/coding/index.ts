export { type CodingToolsetOptions, codingToolset } from "./coding-toolset.js";
