import { Sparkles } from "lucide-react";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from "react";
import {
	generatorAspectRatio,
	generatorDescription,
	generatorEyebrow,
	generatorFormLabel,
	generatorGenerate,
	generatorGenerating,
	generatorTitle,
} from "../../../../shared/i18n/messages";
import { Button } from "../../../components/basics/button";
import { readGenerationTimes } from "../flow/generation-state";
import { useElapsed } from "../flow/use-elapsed";
import { PromptField } from "../form/prompt-field";
import { useKeyboardShortcuts } from "../form/use-keyboard-shortcuts";
import { useResultPreview } from "../results/use-result-preview";
import { AspectRatioSelect } from "../settings/aspect-ratio-select";
import { hasEnhanceRow, SettingsPlaceholder } from "../settings/settings-frame";
import {
	loadBatchResults,
	loadGenerationControls,
	loadGeneratorNotes,
	loadImagePreview,
	prefetchGenerationCode,
} from "./generation-code";
import { ResultPanel } from "./result-panel";
import { useGeneratorForm } from "./use-generator-form";

/** Runs `task` when the browser has nothing better to do (or soon, where it cannot say). */
function whenIdle(task: () => void): () => void {
	// Safari has no requestIdleCallback.
	if (typeof window.requestIdleCallback === "function") {
		const handle = window.requestIdleCallback(task, { timeout: 2_000 });
		return () => window.cancelIdleCallback(handle);
	}
	const timer = setTimeout(task, 200);
	return () => clearTimeout(timer);
}

const ImagePreview = lazy(async () => ({ default: (await loadImagePreview()).ImagePreview }));
const BatchResults = lazy(async () => ({
	default: (await loadBatchResults()).BatchResults,
}));
// The notes under Generate: prerendered, and hydrated once their code has loaded (they answer
// nothing meanwhile). One element for every render, so that the page's renders before the code has
// come (the text typed) leave the prerendered notes as they are rather than render them again empty.
const GeneratorNotes = lazy(async () => ({
	default: (await loadGeneratorNotes()).GeneratorNotes,
}));
const GENERATOR_NOTES = (
	<Suspense fallback={null}>
		<GeneratorNotes />
	</Suspense>
);
const GenerationControls = lazy(async () => ({
	default: (await loadGenerationControls()).GenerationControls,
}));

/** The image file a drag carries, if any. */
function readDroppedFile(transfer: DataTransfer): File | undefined {
	return transfer.files[0];
}

// Tailwind's lg breakpoint, where the form and the result sit side by side.
const TWO_COLUMNS_QUERY = "(min-width: 64rem)";

type GeneratorPageProps = {
	isSignedIn: boolean;
	/** True until the first session lookup answers. */
	isAuthLoading: boolean;
	/** Shown under "please verify your e-mail address": the action that sends the link again. */
	verificationAction?: ReactNode;
};

/** The generator screen at `/` (SPEC.md section 2): the prompt form on the left, results on the right. */
export function GeneratorPage({
	isSignedIn,
	isAuthLoading,
	verificationAction,
}: GeneratorPageProps) {
	const preview = useResultPreview();
	const form = useGeneratorForm({ isSignedIn, isAuthLoading, closePreview: preview.close });
	const { state, isGenerating, promptRef } = form;
	const { startedAt, endedAt } = readGenerationTimes(state);
	const elapsedMs = useElapsed(startedAt, endedAt, isGenerating);
	const resultPanelRef = useRef<HTMLElement>(null);
	const results = state.phase === "completed" && state.images.length > 0 ? state : null;
	const [isDraggingFile, setIsDraggingFile] = useState(false);
	const hasResults = results !== null;

	const hasPrefetchedRef = useRef(false);
	const prefetchOnce = useCallback(() => {
		if (hasPrefetchedRef.current) return;
		hasPrefetchedRef.current = true;
		prefetchGenerationCode();
	}, []);

	useEffect(() => {
		if (isSignedIn) return whenIdle(prefetchOnce);
	}, [isSignedIn, prefetchOnce]);

	useEffect(() => {
		// On one column the panel sits below the form, out of sight on a phone: bring the progress
		// into view when a generation starts.
		if (!isGenerating || window.matchMedia(TWO_COLUMNS_QUERY).matches) return;
		const panel = resultPanelRef.current;
		if (!panel || panel.getBoundingClientRect().top < window.innerHeight * 0.6) return;
		const isMotionReduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
		panel.scrollIntoView({ block: "start", behavior: isMotionReduced ? "auto" : "smooth" });
	}, [isGenerating]);

	useEffect(() => {
		// Fetch the preview's code while the person looks at the results, so it opens at once.
		if (hasResults) loadImagePreview().catch(() => {});
	}, [hasResults]);

	useKeyboardShortcuts({
		onGenerate: form.requestGeneration,
		onClear: form.clearEverything,
		onFocusPrompt: () => promptRef.current?.focus(),
		isEnabled: preview.index === null,
	});

	return (
		<div className="space-y-6 sm:space-y-8">
			<div className="max-w-2xl">
				<p className="inline-flex items-center gap-1.5 rounded-full bg-accent-50 px-3 py-1 text-xs font-semibold text-accent-700 ring-1 ring-accent-200 ring-inset">
					<Sparkles aria-hidden="true" className="size-3.5" />
					{generatorEyebrow()}
				</p>
				<h1 className="mt-3 text-2xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
					{generatorTitle()}
				</h1>
				<p className="mt-2 text-sm text-slate-600 sm:text-base">{generatorDescription()}</p>
			</div>

			<div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:gap-8">
				<form
					ref={form.formRef}
					aria-label={generatorFormLabel()}
					noValidate
					onFocusCapture={prefetchOnce}
					onPointerEnter={prefetchOnce}
					onSubmit={(event) => {
						event.preventDefault();
						form.requestGeneration();
					}}
					// An image dropped here fills the form from the settings it carries.
					onDragOver={(event) => {
						if (!event.dataTransfer.types.includes("Files")) return;
						event.preventDefault();
						setIsDraggingFile(true);
					}}
					onDragLeave={(event) => {
						const next = event.relatedTarget;
						if (!(next instanceof Node && event.currentTarget.contains(next))) {
							setIsDraggingFile(false);
						}
					}}
					onDrop={(event) => {
						const file = readDroppedFile(event.dataTransfer);
						setIsDraggingFile(false);
						if (!file) return;
						event.preventDefault();
						form.takeDroppedImage(file);
					}}
					className={`space-y-5 rounded-2xl bg-white/90 p-5 shadow-card ring-1 sm:p-6 lg:sticky lg:top-24 ${isDraggingFile ? "ring-2 ring-accent-600" : "ring-slate-200/80"}`}
				>
					<PromptField
						ref={promptRef}
						value={form.prompt}
						onChange={form.setPrompt}
						message={form.fieldMessage}
					/>
					<AspectRatioSelect
						label={generatorAspectRatio()}
						value={form.aspectRatio}
						onChange={form.setAspectRatio}
						ratios={form.choice?.model.ratios}
					/>
					<Suspense
						fallback={
							<SettingsPlaceholder
								isEnhanceRowKept={hasEnhanceRow({ isSignedIn, isAuthLoading })}
							/>
						}
					>
						<GenerationControls
							isSignedIn={isSignedIn}
							isAuthLoading={isAuthLoading}
							choice={form.choice}
							onChoiceChange={form.chooseSettings}
							askedSettings={form.askedSettings}
							startError={state.phase === "failed" ? state.message : null}
							onImageChosen={form.loadSettingsFromImage}
							reference={form.reference}
							boardIds={form.boardIds}
							onBoardIdsChange={form.setBoardIds}
							prompt={form.prompt}
							promptRef={promptRef}
							onPromptChange={form.setPrompt}
							onBatchRequestChange={form.setBatchRequest}
						/>
					</Suspense>
					<Button
						type="submit"
						size="lg"
						isFullWidth
						isBusy={isGenerating || form.isStartingBatch}
						disabled={!form.isPromptValid}
					>
						{isGenerating ? null : <Sparkles aria-hidden="true" className="size-4" />}
						{isGenerating || form.isStartingBatch ? generatorGenerating() : generatorGenerate()}
					</Button>
					{GENERATOR_NOTES}
				</form>

				{form.batchRun?.batch ? (
					<Suspense fallback={null}>
						<BatchResults batch={form.batchRun.batch} />
					</Suspense>
				) : (
					<ResultPanel
						ref={resultPanelRef}
						state={state}
						isSignedIn={isSignedIn}
						verificationAction={verificationAction}
						elapsedMs={elapsedMs}
						onCancel={form.cancel}
						onRetry={form.retry}
						onPickExample={(example) => {
							form.setPrompt(example);
							promptRef.current?.focus();
						}}
						onOpenImage={preview.open}
						editTarget={form}
					/>
				)}
			</div>

			{preview.isRequested && results ? (
				<Suspense fallback={null}>
					<ImagePreview
						results={results}
						index={preview.index}
						onIndexChange={preview.setIndex}
						onClose={preview.close}
						readReturnFocus={() => preview.openerRef.current}
						onStart={form.retry}
						editTarget={form}
					/>
				</Suspense>
			) : null}
		</div>
	);
}
