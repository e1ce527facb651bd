import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import {
	type AspectRatio,
	DEFAULT_ASPECT_RATIO,
} from "../../../../shared/generations/aspect-ratios";
import {
	errorNetworkError,
	errorSignInRequired,
	generatorInvalidPrompt,
} from "../../../../shared/i18n/messages";
import {
	sanitizePrompt,
	validateNegativePrompt,
	validatePrompt,
} from "../../../../shared/prompts/prompt";
import { readGeneratorLink } from "../../../lib/generations/generator-link";
import { useTypedBeforeHydration } from "../../../lib/ui/use-typed-before-hydration";
import { type GeneratedRequest, isGenerationRunning } from "../flow/generation-state";
import { toSentReference, useReferenceImage } from "../reference/use-reference-image";
import type { BatchRun } from "../results/batch-results";
import type { BatchRequest } from "../settings/batch-choice";
import {
	type SettingsChoice,
	type SettingsPrefill,
	toRequestedSettings,
} from "../settings/generation-choice";
import { loadBatchResults, loadImageSettings } from "./generation-code";
import { useGenerator } from "./use-generator";

type GeneratorFormOptions = {
	isSignedIn: boolean;
	/** True until the first session lookup answers. */
	isAuthLoading: boolean;
	/** Called when the results shown go (a new generation starts, or the form is cleared). */
	closePreview: () => void;
};

/**
 * The generator's form and what it starts: the prompt, the ratio, the settings and the reference
 * image (filled from a "Use prompt", "Use settings" or Edit link when the page opens, from an
 * image's recipe, from Edit, or, prompt and ratio, from a generation picked up again), the
 * prompt's message, and the requests to generate, retry and clear, each checked for a signed-in
 * person first. The settings' controls, loaded after the first paint, show this state and change
 * it (generation-controls.tsx): they keep `choice` fitted to the chosen model, and fit what a link
 * or a recipe asks for (`askedSettings`) once the models are known; until then none are sent.
 */
export function useGeneratorForm({
	isSignedIn,
	isAuthLoading,
	closePreview,
}: GeneratorFormOptions) {
	const location = useLocation();
	const navigate = useNavigate();
	// "Use prompt" in the history opens `/?prompt=...&ratio=...`: read once, when the page opens.
	const [prefill] = useState(() => readGeneratorLink(location.search));
	const [prompt, setPrompt] = useState(prefill.prompt ?? "");
	const [aspectRatio, setAspectRatio] = useState<AspectRatio>(
		prefill.aspectRatio ?? DEFAULT_ASPECT_RATIO,
	);
	// The settings a link or an image's recipe asks for, until the settings' controls have fitted
	// them to the models offered and chosen the result (generation-controls.tsx).
	const [askedSettings, setAskedSettings] = useState<SettingsPrefill | null>(() => {
		const { prompt: _prompt, aspectRatio: _ratio, reference: _reference, ...settings } = prefill;
		return Object.values(settings).some((value) => value !== null) ? settings : null;
	});
	const [choice, setChoice] = useState<SettingsChoice | null>(null);
	const chooseSettings = useCallback((next: SettingsChoice) => {
		setChoice(next);
		setAskedSettings(null);
		// A ratio the chosen model does not offer gives way to the first it does.
		const { ratios } = next.model;
		setAspectRatio((ratio) => (ratios.includes(ratio) ? ratio : (ratios[0] ?? ratio)));
	}, []);
	// The reference image: an Edit link's, Edit's (result-image.ts), a dropped or added file; sent
	// only while the chosen model takes one.
	const reference = useReferenceImage(
		prefill.reference && { input: prefill.reference, thumbnailUrl: null },
	);
	const sentReference = toSentReference(reference, choice?.model);
	const [hasTriedToGenerate, setHasTriedToGenerate] = useState(false);
	const promptRef = useRef<HTMLTextAreaElement>(null);
	const formRef = useRef<HTMLFormElement>(null);
	useTypedBeforeHydration(formRef, { prompt: (typed) => setPrompt(sanitizePrompt(typed)) });

	const fillFormWithResumed = useCallback((request: GeneratedRequest) => {
		// Show what is being generated, unless the person already started typing something new.
		if (promptRef.current?.value.trim()) return;
		setPrompt(request.prompt);
		setAspectRatio(request.aspectRatio);
	}, []);

	const { state, generate, reject, cancel, reset } = useGenerator({
		isSignedIn,
		isAuthLoading,
		onResume: fillFormWithResumed,
	});
	const isGenerating = isGenerationRunning(state);
	// Variations or Compare models (decision 038): what the batch controls ask for (batch-field.tsx,
	// in the settings' chunk) and the batch submitted, which batch-results.tsx starts and shows.
	const [batchRequest, setBatchRequest] = useState<BatchRequest | null>(null);
	const [batchRun, setBatchRun] = useState<BatchRun | null>(null);
	const isStartingBatch = batchRun !== null && !batchRun.batch;

	const promptCheck = validatePrompt(prompt);
	const negativeCheck = choice?.model.negativePrompt
		? validateNegativePrompt(choice.negativePrompt)
		: null;
	const fieldMessage =
		!promptCheck.ok && (prompt.length > 0 || hasTriedToGenerate) ? promptCheck.message : null;

	// biome-ignore lint/correctness/useExhaustiveDependencies: once, for the address the page opened at.
	useEffect(() => {
		if (prefill.prompt === null && prefill.aspectRatio === null) return;
		// Taken: a reload or Escape must not fill the form again.
		void navigate({ search: "" }, { replace: true });
		promptRef.current?.focus();
	}, []);

	/** False, with the sign-in message shown, when nobody is signed in. */
	function checkSignedIn(): boolean {
		if (isSignedIn || isAuthLoading) return true;
		reject(errorSignInRequired());
		return false;
	}

	// Add new results to…: kept from one generation to the next until changed.
	const [boardIds, setBoardIds] = useState<readonly string[]>([]);

	function start(request: GeneratedRequest) {
		closePreview();
		setBatchRun(null);
		generate(request);
	}

	/** Generate: the form's prompt and ratio, once signed in and the prompt is valid. */
	function requestGeneration() {
		if (isGenerating || !checkSignedIn()) return;
		if (!promptCheck.ok) {
			setHasTriedToGenerate(true);
			reject(generatorInvalidPrompt());
			return;
		}
		if (negativeCheck && !negativeCheck.ok) {
			reject(negativeCheck.message);
			return;
		}
		// Variations or Compare models: one submission, several generations (decision 038).
		if (batchRequest && !sentReference) {
			if (isStartingBatch) return;
			closePreview();
			reset();
			setBatchRun({});
			loadBatchResults()
				.then(({ runBatch }) =>
					runBatch(
						{ prompt: promptCheck.prompt, aspectRatio, choice, batchRequest, boardIds },
						setBatchRun,
						reject,
					),
				)
				.catch((error: Error) => {
					setBatchRun(null);
					reject(error.message);
				});
			return;
		}
		// The settings hand over a reference only for a model that takes one (they say so otherwise).
		start({
			prompt: promptCheck.prompt,
			aspectRatio,
			settings: choice ? toRequestedSettings(choice, promptCheck.prompt) : undefined,
			...(sentReference ? { image: { action: "edit", ...sentReference } } : {}),
			...(boardIds.length > 0 ? { boards: boardIds } : {}),
		});
	}

	/**
	 * An image dropped on the form: its recipe fills the settings as "Load settings from image"
	 * does (or a toast says it has none), and where the chosen model takes an image it also
	 * becomes the reference.
	 */
	function takeDroppedImage(file: File) {
		fillFromImage(file, choice?.model.imageInput ? reference : null);
	}

	/** A chosen image: its prompt, ratio and settings fill the form, when it has them. */
	function loadSettingsFromImage(file: Blob) {
		fillFromImage(file, null);
	}

	/** Reads `file`'s recipe into the form (image-settings.ts); `asReference` adds it as the reference. */
	function fillFromImage(file: Blob, asReference: typeof reference | null) {
		const target = {
			setPrompt,
			setAspectRatio,
			askSettings: setAskedSettings,
			promptRef,
			navigate,
		};
		void loadImageSettings()
			.then(({ fillFormFromImage }) => fillFormFromImage(file, target, asReference))
			// The code could not load (offline): the settings stay, a reference says why it was not
			// added, and the next try loads the code again.
			.catch(() => {
				asReference?.change({ isUploading: false, error: errorNetworkError() });
			});
	}

	/** Try again: the failed generation's own request; Vary and Upscale start theirs the same way. */
	function retry(request: GeneratedRequest) {
		if (checkSignedIn()) start(request);
	}

	/** Escape: an empty form and no result. */
	function clearEverything() {
		reset();
		setBatchRun(null);
		setPrompt("");
		setAspectRatio(DEFAULT_ASPECT_RATIO);
		setHasTriedToGenerate(false);
		reference.remove();
		closePreview();
	}

	return {
		state,
		isGenerating,
		prompt,
		setPrompt,
		aspectRatio,
		setAspectRatio,
		isPromptValid: promptCheck.ok && negativeCheck?.ok !== false,
		fieldMessage,
		choice,
		chooseSettings,
		askedSettings,
		loadSettingsFromImage,
		takeDroppedImage,
		reference,
		/** Edit: one of the person's own images becomes the reference (result-image.ts). */
		chooseReference: reference.chooseImage,
		promptRef,
		formRef,
		requestGeneration,
		boardIds,
		setBoardIds,
		setBatchRequest,
		batchRun,
		isStartingBatch,
		retry,
		cancel,
		clearEverything,
	};
}
