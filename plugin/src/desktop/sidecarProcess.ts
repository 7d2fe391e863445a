/** Desktop only: finds the program, runs `askvault serve` as a child process (no shell, arguments as an array) and stops it. */

import type { ChildProcess } from "child_process";
import { describeLookup, type LookupPlace, type LookupStore } from "./commandLookup";
import { locateCommand, sidecarLookup } from "./locate";

export interface ProcessExit {
	code: number | null;
	signal: string | null;
	/** The last lines the process wrote to stderr, to explain a failed start. */
	stderrTail: string;
}

export interface SidecarProcess {
	readonly pid: number | undefined;
	/** Resolves when the process has exited, for whatever reason. */
	readonly exited: Promise<ProcessExit>;
	stop(): void;
}

export interface StartOptions {
	/** Where the lookup goes (default: the plugin's one store). */
	lookups?: LookupStore;
	/** PATH, home and platform to search (default: this process's). */
	place?: LookupPlace;
}

const TAIL_LINES = 20;
const KILL_AFTER_MS = 3000;

/**
 * Starts the first program `command` names (itself, else `askvault` on PATH or where pipx and uv put it); records the
 * lookup for the settings tab and status bar, and throws, saying how to install it, when there is none.
 */
export async function startSidecar(command: string, args: string[], options: StartOptions = {}): Promise<SidecarProcess> {
	const lookup = await locateCommand(command, options.place);
	(options.lookups ?? sidecarLookup).set(lookup);
	if (lookup.state === "missing") throw new Error(describeLookup(lookup));
	const { spawn } = await import("child_process");
	const child: ChildProcess = spawn(lookup.path, args, {
		shell: false,
		stdio: ["ignore", "ignore", "pipe"],
		windowsHide: true,
	});
	let tail: string[] = [];
	child.stderr?.setEncoding("utf8");
	child.stderr?.on("data", (chunk: string) => {
		tail = [...tail, ...chunk.split(/\r?\n/).filter((l) => l.trim() !== "")].slice(-TAIL_LINES);
	});
	const exited = new Promise<ProcessExit>((resolve) => {
		child.once("error", (e) => resolve({ code: null, signal: null, stderrTail: e.message }));
		child.once("exit", (code, signal) => resolve({ code, signal, stderrTail: tail.join("\n") }));
	});
	let stopping = false;
	return {
		pid: child.pid,
		exited,
		stop() {
			if (stopping || child.exitCode !== null || child.signalCode !== null) return;
			stopping = true;
			child.kill("SIGTERM");
			const timer = window.setTimeout(() => {
				if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
			}, KILL_AFTER_MS);
			void exited.then(() => window.clearTimeout(timer));
		},
	};
}
