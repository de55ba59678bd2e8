/** `remote-toolsets.link.ts` as the build ships it: the toolsets' code loads at the first call. */
import { ownFile } from "../deps/own-file.js";
import type { RemoteToolsets } from "./remote-toolsets.link.js";

export const remoteToolsets = ownFile<RemoteToolsets>("remote-toolsets");
