/** "Connect to a remote sidecar": a pasted pairing link (or its address, fingerprint and code), a device name, then pairing, with any failure in one sentence. */

import { type App, Modal, Notice, Platform, Setting, type TextComponent } from "obsidian";
import { isAbort } from "../sidecar/client";
import { checkPairing, defaultDeviceName, linkFields, normaliseDeviceName, type PairingFields, type PairingLink } from "../sidecar/pairing";
import type { StoredRemote } from "../sidecar/remote";

/** What the modal needs: pairing (SidecarConnection.pairRemote). */
export interface RemotePairer {
	pairRemote(link: PairingLink, device: string, signal?: AbortSignal): Promise<StoredRemote>;
}

type Field = keyof PairingFields | "link" | "device";

export class ConnectRemoteModal extends Modal {
	private readonly inputs = new Map<Field, TextComponent>();
	private errorEl!: HTMLElement;
	private connectButton!: HTMLButtonElement;
	private pairing: AbortController | null = null;

	constructor(
		app: App,
		private readonly pairer: RemotePairer,
		private readonly prefill: PairingFields | null = null,
	) {
		super(app);
	}

	onOpen(): void {
		this.setTitle("Connect to a remote sidecar");
		const { contentEl } = this;
		contentEl.addClass("ask-vault-remote-modal");
		contentEl.createEl("p", {
			text: "On the computer that runs the sidecar, run `askvault pair`: open its QR code on this device, or paste its link here.",
		});
		this.field("link", "Pairing link", "obsidian://askvault-pair?…", "", (value) => this.fillFromLink(value));
		this.field("address", "Address", "192.168.1.5:8765", this.prefill?.address ?? "");
		this.field("fingerprint", "Certificate fingerprint", "AB:CD:EF:…", this.prefill?.fingerprint ?? "");
		this.field("code", "Pairing code", "ABCD-EFGH", this.prefill?.code ?? "");
		this.field("device", "Device name", "", defaultDeviceName(Platform), undefined, "How `askvault devices` lists this device.");
		this.errorEl = contentEl.createDiv({ cls: "ask-vault-pair-error", attr: { role: "alert" } });
		this.errorEl.hide();
		const buttons = contentEl.createDiv({ cls: "modal-button-container" });
		this.connectButton = buttons.createEl("button", { cls: "mod-cta", text: "Connect" });
		this.connectButton.addEventListener("click", () => void this.connect());
		const cancel = buttons.createEl("button", { text: "Cancel" });
		cancel.addEventListener("click", () => this.close());
		if (this.prefill !== null) this.check();
	}

	onClose(): void {
		// Closing the modal while it pairs stops the request: nothing is stored for a pairing the user walked away from.
		this.pairing?.abort();
		this.contentEl.empty();
	}

	private field(key: Field, name: string, placeholder: string, value: string, onInput?: (value: string) => void, desc?: string): void {
		const setting = new Setting(this.contentEl).setName(name);
		if (desc !== undefined) setting.setDesc(desc);
		setting.addText((text) => {
			text.setPlaceholder(placeholder).setValue(value);
			text.inputEl.setAttr("data-ask-vault-field", key);
			text.inputEl.autocomplete = "off";
			text.inputEl.spellcheck = false;
			text.onChange((changed) => {
				this.showError(null);
				onInput?.(changed);
			});
			this.inputs.set(key, text);
		});
	}

	private value(key: Field): string {
		return this.inputs.get(key)?.getValue() ?? "";
	}

	/** A pasted link fills the three fields it holds (a link is easier to paste than to type). */
	private fillFromLink(text: string): void {
		const fields = linkFields(text);
		if (fields === null) {
			if (text.trim() !== "") this.showError("That is not an Ask Vault pairing link: the link `askvault pair` prints starts with obsidian://askvault-pair?.");
			return;
		}
		this.inputs.get("address")?.setValue(fields.address);
		this.inputs.get("fingerprint")?.setValue(fields.fingerprint);
		this.inputs.get("code")?.setValue(fields.code);
		this.check();
	}

	/** The fields checked; shows the first problem and returns null when there is one. */
	private check(): { link: PairingLink; device: string } | null {
		try {
			const link = checkPairing({ address: this.value("address"), fingerprint: this.value("fingerprint"), code: this.value("code") });
			return { link, device: normaliseDeviceName(this.value("device")) };
		} catch (e) {
			this.showError(e instanceof Error ? e.message : String(e));
			return null;
		}
	}

	private async connect(): Promise<void> {
		if (this.pairing !== null) return;
		const checked = this.check();
		if (checked === null) return;
		const controller = new AbortController();
		this.pairing = controller;
		this.showError(null);
		this.connectButton.disabled = true;
		this.connectButton.setText("Connecting…");
		try {
			const record = await this.pairer.pairRemote(checked.link, checked.device, controller.signal);
			new Notice(`Ask Vault: connected to the sidecar at ${record.address} as "${record.device}".`);
			this.pairing = null;
			this.close();
		} catch (e) {
			if (controller.signal.aborted || isAbort(e)) return;
			this.showError(e instanceof Error ? e.message : String(e));
		} finally {
			this.pairing = null;
			this.connectButton.disabled = false;
			this.connectButton.setText("Connect");
		}
	}

	private showError(message: string | null): void {
		this.errorEl.setText(message ?? "");
		this.errorEl.toggle(message !== null);
	}
}
