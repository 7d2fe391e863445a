/** The chat pane: a conversation whose answers stream in, with citations that preview and open their notes. */

import { type HoverParent, type HoverPopover, ItemView, type WorkspaceLeaf } from "obsidian";
import { linktextFor } from "../answer/citations";
import { type Action, type Conversation, emptyConversation, findTurn, historyBefore, isRunning, reduce, type Turn } from "../answer/state";
import { isAbort, SidecarError } from "../sidecar/client";
import type { AskRequest, Source } from "../sidecar/wire";
import { CHAT_ICON, VIEW_TYPE_CHAT } from "../constants";
import { outsideFile } from "../answer/sourceFolders";
import { type AskInput, type AskVaultHost, folderSources, localCopyOnly } from "../plugin/host";
import { markedSource, SOURCE_SELECTOR } from "./citationDom";
import { followConnection } from "./connectionNotice";
import { EXPLAIN_ATTR } from "./explainPanel";
import { cardContent, HoverCard } from "./hoverCard";
import { openLocated } from "./openNote";
import { TurnView } from "./turnView";
import { WhyNot } from "./whyNot";

export class ChatView extends ItemView implements HoverParent {
	hoverPopover: HoverPopover | null = null;
	private conversation: Conversation = emptyConversation;
	private readonly turnViews = new Map<number, TurnView>();
	private running: { turnId: number; controller: AbortController } | null = null;
	private messagesEl!: HTMLElement;
	private emptyEl!: HTMLElement;
	private inputEl!: HTMLTextAreaElement;
	private sendButton!: HTMLButtonElement;
	private card!: HoverCard;
	private readonly whyNot: WhyNot;

	constructor(
		leaf: WorkspaceLeaf,
		private readonly host: AskVaultHost,
	) {
		super(leaf);
		this.whyNot = new WhyNot(this.app, () => this.host.connection.client);
	}

	getViewType(): string {
		return VIEW_TYPE_CHAT;
	}

	getDisplayText(): string {
		return "Ask Vault";
	}

	getIcon(): string {
		return CHAT_ICON;
	}

	protected async onOpen(): Promise<void> {
		const root = this.contentEl;
		root.empty();
		root.addClass("ask-vault-view");
		this.addAction("square-pen", "New conversation", () => this.newConversation());

		this.register(followConnection(root.createDiv(), this.host));
		this.messagesEl = root.createDiv({ cls: "ask-vault-messages" });
		this.emptyEl = this.messagesEl.createDiv({
			cls: "ask-vault-empty",
			text: "Ask a question about your notes. Answers cite the notes they come from; hover a citation to preview it.",
		});
		this.card = new HoverCard(this.messagesEl);

		const composer = root.createDiv({ cls: "ask-vault-composer" });
		this.inputEl = composer.createEl("textarea", {
			cls: "ask-vault-input",
			attr: { placeholder: "Ask about your notes…", rows: 3, "aria-label": "Question" },
		});
		const buttons = composer.createDiv({ cls: "ask-vault-composer-buttons" });
		const newButton = buttons.createEl("button", { cls: "ask-vault-new", text: "New conversation" });
		this.sendButton = buttons.createEl("button", { cls: "mod-cta ask-vault-send", text: "Send" });

		this.registerDomEvent(this.inputEl, "keydown", (evt) => {
			if (evt.key === "Enter" && !evt.shiftKey && !evt.isComposing) {
				evt.preventDefault();
				this.submitInput();
			}
		});
		this.registerDomEvent(this.sendButton, "click", () => {
			if (this.running) this.stop();
			else this.submitInput();
		});
		this.registerDomEvent(newButton, "click", () => this.newConversation());
		this.registerDomEvent(this.messagesEl, "click", (evt) => this.onClick(evt));
		this.registerDomEvent(this.messagesEl, "keydown", (evt) => this.onKey(evt));
		this.registerDomEvent(this.messagesEl, "mouseover", (evt) => this.onMouseOver(evt));
		this.registerDomEvent(this.messagesEl, "mouseout", (evt) => this.onMouseOut(evt));
		this.registerDomEvent(this.messagesEl, "scroll", () => this.hideCard());
		this.register(() => this.hideCard());
	}

	protected async onClose(): Promise<void> {
		this.running?.controller.abort();
		this.whyNot.dispose();
		this.clearTurns();
	}

	/** Asks a question as the next turn of the conversation (stopping an answer still streaming). */
	ask(input: AskInput): void {
		const question = input.question.trim();
		if (question === "") return;
		if (this.running) this.stop();
		const settings = this.host.settings;
		const request: AskRequest = { question: (input.text ?? question).trim(), k: settings.topK };
		const history = historyBefore(this.conversation);
		if (history.length > 0) request.history = history;
		if (input.filters && Object.keys(input.filters).length > 0) request.filters = input.filters;
		this.dispatch({ type: "ask", question, context: input.context ?? null, request });
		const turn = this.conversation.turns[this.conversation.turns.length - 1];
		if (turn) void this.run(turn.id);
	}

	stop(): void {
		this.running?.controller.abort();
	}

	newConversation(): void {
		this.stop();
		this.dispatch({ type: "reset" });
		this.inputEl.focus();
	}

	/** Asks a finished turn's question again; `force` ("Ask anyway") sends the notes the sidecar kept back. */
	retry(turnId: number, force = false): void {
		const turn = findTurn(this.conversation, turnId);
		if (!turn || isRunning(turn)) return;
		if (this.running) this.stop();
		this.dispatch({ type: "retry", turnId, force });
		void this.run(turnId);
	}

	private submitInput(): void {
		const question = this.inputEl.value;
		if (question.trim() === "") return;
		this.inputEl.value = "";
		this.ask({ question });
	}

	private async run(turnId: number): Promise<void> {
		const turn = findTurn(this.conversation, turnId);
		if (!turn) return;
		const controller = new AbortController();
		this.running = { turnId, controller };
		this.updateComposer();
		let terminal = false;
		try {
			for await (const event of this.host.connection.client.ask(turn.request, controller.signal)) {
				this.dispatch({ type: "event", turnId, event });
				if (event.type === "done" || event.type === "error") terminal = true;
			}
			if (!terminal) this.dispatch({ type: "ended", turnId });
		} catch (e) {
			if (controller.signal.aborted || isAbort(e)) {
				// A stream aborted after its done/error event ended its turn already; marking the turn stopped now
				// would overwrite the run that "Retry" or "Ask anyway" just started on the same turn.
				if (!terminal) this.dispatch({ type: "stopped", turnId });
			} else if (e instanceof SidecarError) {
				this.dispatch({ type: "failed", turnId, error: { code: e.code, message: e.message } });
			} else {
				this.dispatch({ type: "failed", turnId, error: { code: "internal", message: String(e) } });
			}
		} finally {
			if (this.running?.controller === controller) this.running = null;
			this.updateComposer();
		}
	}

	private dispatch(action: Action): void {
		const before = this.conversation;
		this.conversation = reduce(before, action);
		if (this.conversation === before) return;
		if (action.type === "reset") this.clearTurns();
		for (const turn of this.conversation.turns) {
			const previous = before.turns.find((t) => t.id === turn.id) ?? null;
			if (previous === turn) continue;
			this.showTurn(turn, previous);
		}
		this.emptyEl.toggleClass("is-hidden", this.conversation.turns.length > 0);
	}

	private showTurn(turn: Turn, previous: Turn | null): void {
		let view = this.turnViews.get(turn.id);
		if (!view) {
			view = this.addChild(new TurnView(this.messagesEl, this.app, turn));
			this.turnViews.set(turn.id, view);
			this.messagesEl.scrollTop = this.messagesEl.scrollHeight;
			return;
		}
		const stick = this.isScrolledToBottom();
		void view.update(turn, previous).then(() => {
			if (stick) this.messagesEl.scrollTop = this.messagesEl.scrollHeight;
		});
	}

	private clearTurns(): void {
		for (const view of this.turnViews.values()) this.removeChild(view);
		this.turnViews.clear();
		this.hideCard();
	}

	private isScrolledToBottom(): boolean {
		const el = this.messagesEl;
		return el.scrollHeight - el.scrollTop - el.clientHeight < 40;
	}

	private updateComposer(): void {
		const busy = this.running !== null;
		this.sendButton.setText(busy ? "Stop" : "Send");
		this.sendButton.toggleClass("mod-warning", busy);
		this.sendButton.toggleClass("mod-cta", !busy);
		this.sendButton.setAttr("aria-label", busy ? "Stop the answer" : "Send the question");
	}

	// Citations and sources: one delegated listener each for hover, click and keyboard.

	private sourceAt(evt: UIEvent): { el: HTMLElement; source: Source } | null {
		const node = evt.targetNode;
		if (!node || !node.instanceOf(HTMLElement)) return null;
		const el = node.closest<HTMLElement>(SOURCE_SELECTOR);
		const source = el ? markedSource(el, (id) => findTurn(this.conversation, id)?.retrieval ?? null) : undefined;
		return el && source ? { el, source } : null;
	}

	private onClick(evt: MouseEvent): void {
		const node = evt.targetNode;
		if (node?.instanceOf(HTMLElement)) {
			const retry = node.closest<HTMLElement>("[data-ask-vault-retry], [data-ask-vault-force]");
			if (retry) {
				const force = retry.hasAttribute("data-ask-vault-force");
				this.retry(Number(retry.getAttr(force ? "data-ask-vault-force" : "data-ask-vault-retry")), force);
				return;
			}
			const explain = node.closest<HTMLElement>(`[${EXPLAIN_ATTR}]`);
			if (explain) {
				this.pickNoteToExplain(Number(explain.getAttr(EXPLAIN_ATTR)));
				return;
			}
		}
		const hit = this.sourceAt(evt);
		if (!hit) return;
		evt.preventDefault();
		this.hideCard();
		this.openSource(hit.source, evt);
	}

	/** "Why not…?": the picked note is explained against this turn's search, in its inspector. */
	pickNoteToExplain(turnId: number): void {
		const view = this.turnViews.get(turnId);
		if (view) this.whyNot.pick(view);
	}

	private onKey(evt: KeyboardEvent): void {
		if (evt.key !== "Enter") return;
		const hit = this.sourceAt(evt);
		if (!hit) return;
		evt.preventDefault();
		this.openSource(hit.source, evt);
	}

	private openSource(source: Source, evt: MouseEvent | KeyboardEvent): void {
		openLocated(this.app, source, evt, folderSources(this.host), localCopyOnly(this.host));
	}

	private onMouseOver(evt: MouseEvent): void {
		const hit = this.sourceAt(evt);
		if (!hit || this.card.isFor(hit.el)) return;
		if (outsideFile(hit.source.path, folderSources(this.host)) !== null) {
			// A file beside the vault: no Page preview can show it, so the card does at once.
			this.card.scheduleShow(hit.el, () => cardContent(hit.source, this.host.connection.client), () => true);
			return;
		}
		this.app.workspace.trigger("hover-link", {
			event: evt,
			source: VIEW_TYPE_CHAT,
			hoverParent: this,
			targetEl: hit.el,
			linktext: linktextFor(hit.source),
			sourcePath: "",
		});
		// Page preview sets `hoverPopover` on its parent (this view) when it shows the note itself.
		this.card.scheduleShow(hit.el, () => cardContent(hit.source, this.host.connection.client), () => this.hoverPopover === null);
	}

	private onMouseOut(evt: MouseEvent): void {
		const hit = this.sourceAt(evt);
		const to = evt.relatedTarget;
		if (hit && to !== null && typeof to === "object" && "nodeType" in to && hit.el.contains(to as Node)) return;
		if (hit) this.card.scheduleHide();
	}

	private hideCard(): void {
		this.card?.hide();
	}
}
