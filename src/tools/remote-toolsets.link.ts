/**
 * How the package entry reaches the REST and MCP toolsets. Run from the sources, they are
 * imported here as any module; the build puts `remote-toolsets.link.built.ts` in this file's
 * place, which loads their own built file (`dist/remote-toolsets.mjs`) at the first call.
 */
import * as remoteToolsetsModule from "./remote-toolsets.js";

export type RemoteToolsets = typeof remoteToolsetsModule;

export const remoteToolsets = (): RemoteToolsets => remoteToolsetsModule;
