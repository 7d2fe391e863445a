/**
 * A small runtime stand-in for the `obsidian` module, enough to run Ask Vault in a page (the e2e harness) or in
 * jsdom (vitest). It imitates the app's behaviour that the plugin relies on and records what a test needs to see
 * (hover-link payloads, opened links, notices). It is not Obsidian: layout, real Page preview and themes differ.
 */

// The pieces live in one module each (core, vault, workspace, app, modal, setting, render, ui, request);
// this module installs the DOM helpers and re-exports them all, so `import * as obsidian` sees the whole API.
import { installDomHelpers, type ElInfo } from "./dom";

installDomHelpers(window);

export * from "./app";
export * from "./core";
export * from "./modal";
export * from "./render";
export * from "./request";
export * from "./setting";
export * from "./ui";
export * from "./vault";
export * from "./workspace";

export type { ElInfo };
