/** The plugin's desktop-only pieces (discovery, spawning the sidecar, its arguments, the pinned fetch), bundled for the Node side of the e2e run. */

export { discover, vaultDataFolder } from "../../src/desktop/discovery";
export { startSidecar } from "../../src/desktop/sidecarProcess";
export { parseSettings, serveArgs } from "../../src/settings";
export { pinnedFetch } from "../../src/desktop/pinnedFetch";
