/** The "Ask vault" prompt: a question box whose answer opens in the chat pane. */

import { type App, Modal } from "obsidian";

export class AskModal extends Modal {
	constructor(
		app: App,
		private readonly askContext: string | null,
		private readonly onAsk: (question: string) => void,
	) {
		super(app);
	}

	onOpen(): void {
		this.setTitle("Ask your vault");
		const { contentEl } = this;
		contentEl.addClass("ask-vault-ask-modal");
		if (this.askContext) contentEl.createDiv({ cls: "ask-vault-question-context", text: this.askContext });
		const input = contentEl.createEl("textarea", {
			cls: "ask-vault-input",
			attr: { placeholder: "Ask about your notes…", rows: 4, "aria-label": "Question" },
		});
		const buttons = contentEl.createDiv({ cls: "modal-button-container" });
		const ask = buttons.createEl("button", { cls: "mod-cta", text: "Ask" });
		const submit = () => {
			const question = input.value.trim();
			if (question === "") return;
			this.close();
			this.onAsk(question);
		};
		ask.addEventListener("click", submit);
		input.addEventListener("keydown", (evt) => {
			if (evt.key === "Enter" && !evt.shiftKey && !evt.isComposing) {
				evt.preventDefault();
				submit();
			}
		});
		window.setTimeout(() => input.focus(), 0);
	}

	onClose(): void {
		this.contentEl.empty();
	}
}
