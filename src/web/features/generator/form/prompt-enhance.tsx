// Enhance: the operator's chat model proposes a rewrite of the prompt, shown beside it with Use,
// Edit and Discard; nothing changes the prompt but Use, and Ctrl+Z in the prompt box then brings
// the prompt back as it was. Shown when the server says it is configured; loaded with the settings.
import { Languages, WandSparkles } from "lucide-react";
import { type RefObject, useEffect, useId, useRef, useState } from "react";
import { MAX_PROMPT_LENGTH } from "../../../../shared/core/constants";
import {
	errorEnhanceFailed,
	generatorDiscard,
	generatorEdit,
	generatorEnhance,
	generatorEnhancedPrompt,
	generatorEnhanceNote,
	generatorEnhanceYourPrompt,
	generatorEnhancing,
	generatorTranslateToEnglish,
	generatorUse,
} from "../../../../shared/i18n/messages";
import { sanitizePrompt } from "../../../../shared/prompts/prompt";
import { Button } from "../../../components/basics/button";
import { ApiError } from "../../../lib/api/api-client";
import { enhancePrompt } from "../../../lib/generations/prompts-requests";
import { showToast } from "../../../lib/ui/toast";
import { ENHANCE_ROW_CLASS_NAME } from "../settings/settings-frame";

/** A rewrite used: the prompt it replaced, and itself. */
export type UsedRewrite = { original: string; used: string };

type PromptEnhanceProps = {
	/** The prompt box's text, which is rewritten. */
	prompt: string;
	promptRef: RefObject<HTMLTextAreaElement | null>;
	onPromptChange: (prompt: string) => void;
	/** A rewrite was used: the generation started from it keeps the original too. */
	onUse: (rewrite: UsedRewrite) => void;
};

type Proposal = { original: string; text: string; isEditing: boolean };

/** The proposal's buttons on a phone: a finger's 44 px, not a pointer's 36. */
const TOUCH_BUTTON_CLASS_NAME = "max-sm:h-11 max-sm:px-4";

/** Ctrl+Z (⌘Z) without Shift or Alt: the browser's own undo. */
function isUndo(event: KeyboardEvent): boolean {
	return (
		(event.ctrlKey || event.metaKey) &&
		!event.shiftKey &&
		!event.altKey &&
		event.key.toLowerCase() === "z"
	);
}

/**
 * After Use, Ctrl+Z in the prompt box brings back what it held, while it still holds the rewrite
 * (the browser's own undo does not know a text the page put there).
 */
function useUndoRewrite(
	promptRef: RefObject<HTMLTextAreaElement | null>,
	onPromptChange: (prompt: string) => void,
) {
	const usedRef = useRef<UsedRewrite | null>(null);
	const changeRef = useRef(onPromptChange);
	useEffect(() => {
		changeRef.current = onPromptChange;
	});
	useEffect(() => {
		const field = promptRef.current;
		if (!field) return;
		const undo = (event: KeyboardEvent) => {
			const used = usedRef.current;
			if (!used || !isUndo(event)) return;
			usedRef.current = null;
			if (field.value !== used.used) return;
			event.preventDefault();
			changeRef.current(used.original);
		};
		field.addEventListener("keydown", undo);
		return () => field.removeEventListener("keydown", undo);
	}, [promptRef]);
	return usedRef;
}

export function PromptEnhance({ prompt, promptRef, onPromptChange, onUse }: PromptEnhanceProps) {
	const panelId = useId();
	const headingId = useId();
	const buttonRef = useRef<HTMLButtonElement>(null);
	const headingRef = useRef<HTMLHeadingElement>(null);
	const editRef = useRef<HTMLTextAreaElement>(null);
	const [isTranslating, setIsTranslating] = useState(false);
	const [isBusy, setIsBusy] = useState(false);
	const [proposal, setProposal] = useState<Proposal | null>(null);
	const usedRef = useUndoRewrite(promptRef, onPromptChange);
	const original = prompt.trim();

	useEffect(() => {
		if (proposal?.isEditing) editRef.current?.focus();
	}, [proposal?.isEditing]);
	// A new proposal is read out from its heading, and the keyboard goes on to Use: once it is in
	// the page (a frame after the answer may come before React has put it there).
	const isHeadingToFocusRef = useRef(false);
	useEffect(() => {
		if (!proposal || !isHeadingToFocusRef.current) return;
		isHeadingToFocusRef.current = false;
		headingRef.current?.focus();
	}, [proposal]);

	const ask = async () => {
		if (original === "" || isBusy) return;
		setIsBusy(true);
		try {
			const text = await enhancePrompt(original, isTranslating);
			isHeadingToFocusRef.current = true;
			setProposal({ original, text, isEditing: false });
		} catch (error) {
			void showToast("error", error instanceof ApiError ? error.message : errorEnhanceFailed());
		} finally {
			setIsBusy(false);
		}
	};

	const discard = () => {
		setProposal(null);
		buttonRef.current?.focus();
	};

	const use = () => {
		if (!proposal) return;
		const used = proposal.text.trim();
		if (used === "") return;
		usedRef.current = { original: prompt, used };
		onPromptChange(used);
		onUse({ original: proposal.original, used });
		setProposal(null);
		promptRef.current?.focus();
	};

	return (
		<div className={ENHANCE_ROW_CLASS_NAME}>
			<button
				ref={buttonRef}
				type="button"
				aria-expanded={proposal !== null}
				aria-controls={panelId}
				aria-busy={isBusy}
				disabled={original === "" || isBusy}
				onClick={() => void ask()}
				className="inline-flex h-9 cursor-pointer items-center gap-1.5 rounded-lg px-1.5 text-sm font-medium text-accent-700 hover:bg-accent-50 disabled:cursor-default disabled:opacity-60"
			>
				<WandSparkles aria-hidden="true" className="size-4" />
				{isBusy ? generatorEnhancing() : generatorEnhance()}
			</button>
			<label className="inline-flex h-9 items-center gap-1.5 px-1.5 text-sm text-slate-800">
				<input
					type="checkbox"
					checked={isTranslating}
					onChange={(event) => setIsTranslating(event.target.checked)}
					className="size-4 accent-accent-600"
				/>
				<Languages aria-hidden="true" className="size-4 text-slate-500" />
				{generatorTranslateToEnglish()}
			</label>
			{proposal ? (
				<section
					id={panelId}
					aria-labelledby={headingId}
					onKeyDown={(event) => {
						if (event.key === "Escape") {
							event.stopPropagation();
							discard();
						}
					}}
					// On a phone the panel spans the row, so it never runs past the screen's edge.
					className="absolute top-full right-0 left-0 z-menu mt-1 space-y-2 rounded-xl bg-white p-3 shadow-lg ring-1 ring-slate-200 sm:right-auto sm:left-2 sm:w-80"
				>
					<h2
						ref={headingRef}
						id={headingId}
						tabIndex={-1}
						className="text-sm font-medium text-slate-900 focus:outline-none"
					>
						{generatorEnhancedPrompt()}
					</h2>
					{proposal.isEditing ? (
						<textarea
							ref={editRef}
							aria-labelledby={headingId}
							rows={6}
							maxLength={MAX_PROMPT_LENGTH}
							value={proposal.text}
							onChange={(event) =>
								setProposal({ ...proposal, text: sanitizePrompt(event.target.value) })
							}
							className="block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-accent-600 focus:outline-none"
						/>
					) : (
						<p className="max-h-72 overflow-y-auto text-sm break-words whitespace-pre-wrap text-slate-800">
							{proposal.text}
						</p>
					)}
					<div className="space-y-0.5 border-l-2 border-slate-200 pl-2">
						<h3 className="text-xs font-medium text-slate-600">{generatorEnhanceYourPrompt()}</h3>
						<p className="max-h-24 overflow-y-auto text-xs break-words whitespace-pre-wrap text-slate-600">
							{proposal.original}
						</p>
					</div>
					<p className="text-xs text-slate-600">{generatorEnhanceNote()}</p>
					<div className="flex gap-2">
						<Button
							size="sm"
							className={TOUCH_BUTTON_CLASS_NAME}
							onClick={use}
							disabled={proposal.text.trim() === ""}
						>
							{generatorUse()}
						</Button>
						{proposal.isEditing ? null : (
							<Button
								size="sm"
								variant="secondary"
								className={TOUCH_BUTTON_CLASS_NAME}
								onClick={() => setProposal({ ...proposal, isEditing: true })}
							>
								{generatorEdit()}
							</Button>
						)}
						<Button size="sm" variant="ghost" className={TOUCH_BUTTON_CLASS_NAME} onClick={discard}>
							{generatorDiscard()}
						</Button>
					</div>
				</section>
			) : null}
		</div>
	);
}
