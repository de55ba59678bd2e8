export type { EndSessionOptions } from "./end-session.js";
