// The browser's side of a generation: start it, or pick one up again, then follow it to the end
// (follow-until-done.ts) and show the server's record of it. Loaded on demand (see
// generation-code.ts), not with the first page.

import { type AspectRatio, sizeForAspectRatio } from "../../../../shared/generations/aspect-ratios";
import {
	type Generation,
	type GenerationImage,
	isInProgress,
} from "../../../../shared/generations/generation-responses";
import { generatorFailed, generatorNoPollingUrl } from "../../../../shared/i18n/messages";
import { isAbortError } from "../../../lib/api/api-client";
import {
	fetchGeneration,
	fetchGenerationsPage,
	type StartGenerationRequest,
	startGeneration,
} from "../../../lib/generations/generations-requests";
import { buildImageActionRequest } from "../../../lib/generations/image-actions";
import { announceGeneration } from "./announce-generation";
import { type Dispatch, describeFailure, followUntilDone } from "./follow-until-done";
import type { GeneratedRequest, GenerationFamilyFacts, GenerationRecipe } from "./generation-state";

// The offline engine and most providers make images about this big on the long side.
const FALLBACK_LONG_SIDE = 1024;

/**
 * Images made from bare poll URLs, for when the saved record cannot be read: their size comes
 * from the aspect ratio, so the space they take is still reserved before they load.
 */
function createImagesFromUrls(
	urls: readonly string[],
	aspectRatio: AspectRatio,
): GenerationImage[] {
	const { width, height } = sizeForAspectRatio(aspectRatio, FALLBACK_LONG_SIDE);
	return urls.map((url) => ({
		url,
		width,
		height,
		thumbnailUrl: url,
		thumbnailWidth: width,
		thumbnailHeight: height,
	}));
}

/** Parses a server timestamp, or null when it is missing or unreadable. */
function parseTimestamp(value: string | null | undefined): number | null {
	if (!value) return null;
	const time = Date.parse(value);
	return Number.isNaN(time) ? null : time;
}

/** Passes actions on until `signal` aborts: cancel and reset have said what the screen shows. */
function dispatchUntilAborted(dispatch: Dispatch, signal: AbortSignal): Dispatch {
	return (action) => {
		if (!signal.aborted) dispatch(action);
	};
}

type FollowTarget = {
	generationId: string;
	pollingUrl: string;
	request: GeneratedRequest;
};

/** Follows the generation to its end, then shows its saved record, or the failure. */
async function followGeneration(
	target: FollowTarget,
	dispatch: Dispatch,
	signal: AbortSignal,
): Promise<void> {
	const outcome = await followUntilDone(target, dispatch, signal);
	if (outcome.kind === "failed") {
		dispatch({ type: "failed", message: outcome.message });
		return;
	}

	let images = createImagesFromUrls(outcome.imageUrls, target.request.aspectRatio);
	let startedAt: number | null = null;
	let endedAt = Date.now();
	let recipe: GenerationRecipe | undefined;
	let family: GenerationFamilyFacts | undefined;
	try {
		// The saved record has each image's size and thumbnail, and the server's start and end
		// times for the elapsed display. If it cannot be read the poll's URLs and the current time
		// stand in, without a word (SPEC.md section 4).
		const record = await fetchGeneration(target.generationId, signal);
		if (record.images.length > 0) images = record.images;
		startedAt = parseTimestamp(record.created_at);
		endedAt = parseTimestamp(record.completed_at) ?? endedAt;
		recipe = { model: record.model, settings: record.settings };
		family = { parent: record.parent, childrenCount: record.childrenCount };
	} catch (error) {
		if (isAbortError(error)) throw error;
	}
	dispatch({ type: "completed", images, startedAt, endedAt, recipe, family });
}

/** Follows to the end; anything unexpected on the way is a plain failure, an abort is silence. */
async function followToTheEnd(
	target: FollowTarget,
	dispatch: Dispatch,
	signal: AbortSignal,
): Promise<void> {
	try {
		await followGeneration(target, dispatch, signal);
	} catch (error) {
		if (!isAbortError(error)) dispatch({ type: "failed", message: generatorFailed() });
	}
}

/**
 * What the start sends for `request`. Vary and Upscale name only the image, the action and the
 * factor: the prompt, ratio and model are the parent's, as the server takes them. An edit sends
 * the form's prompt and settings with its reference and strength.
 */
export function toStartRequest(request: GeneratedRequest): StartGenerationRequest {
	const { prompt, aspectRatio, settings, image } = request;
	const boards = request.boards?.length ? { boards: [...request.boards] } : {};
	if (image && image.action !== "edit") {
		return { ...buildImageActionRequest(image.action, image.reference, image.factor), ...boards };
	}
	const start: StartGenerationRequest = { prompt, aspectRatio, ...settings, ...boards };
	if (image) {
		start.action = "edit";
		start.reference = image.reference;
		// None set: the server's default strength (DEFAULT_REFERENCE_STRENGTH).
		if (image.strength !== undefined) start.strength = image.strength;
	}
	return start;
}

/**
 * Starts a generation and follows it to the end; failures become the screen's error. The caller
 * has already dispatched `started`, so the screen answers the click before this module loads.
 */
export async function startAndFollowGeneration(
	request: GeneratedRequest,
	dispatch: Dispatch,
	signal: AbortSignal,
): Promise<void> {
	const report = dispatchUntilAborted(dispatch, signal);
	let accepted: Awaited<ReturnType<typeof startGeneration>>;
	try {
		accepted = await startGeneration(toStartRequest(request), signal);
	} catch (error) {
		if (!isAbortError(error)) report({ type: "failed", message: describeFailure("start", error) });
		return;
	}
	const { id: generationId, pollingUrl, model, settings } = accepted;
	if (!pollingUrl) {
		report({ type: "failed", message: generatorNoPollingUrl() });
		return;
	}
	// The seed drawn for a random one is known from the start: the panels show it at once.
	const recipe = model && settings ? { model, settings } : undefined;
	const announce = announceGeneration(report, signal, {
		id: generationId,
		prompt: request.prompt,
	});
	announce({ type: "accepted", generationId, pollingUrl, recipe });
	announce({ type: "pollingStarted" });
	await followToTheEnd({ generationId, pollingUrl, request }, announce, signal);
}

// Several generations may run at once (the server allows a few per person); the newest few are
// enough to find the one to pick up.
const RESUME_LOOKUP_LIMIT = 5;

/** The newest of the person's generations still queued or running, if any and not in `skipIds`. */
async function findGenerationToResume(
	skipIds: ReadonlySet<string>,
	signal: AbortSignal,
): Promise<Generation | undefined> {
	const page = await fetchGenerationsPage({ limit: RESUME_LOOKUP_LIMIT, signal });
	return page.items.find((item) => isInProgress(item.status) && !skipIds.has(item.id));
}

/**
 * Picks up the newest generation still queued or running (another visit, a reload), unless it is
 * in `skipIds` or `shouldResume` says no by the time the lookup answers, and follows it to the end.
 * The request is handed to `onResume` first, so the form can show it.
 */
export async function resumeGeneration(options: {
	skipIds: ReadonlySet<string>;
	shouldResume: () => boolean;
	onResume: (request: GeneratedRequest) => AbortSignal;
	dispatch: Dispatch;
	lookupSignal: AbortSignal;
}): Promise<void> {
	const generation = await findGenerationToResume(options.skipIds, options.lookupSignal).catch(
		() => undefined,
	);
	if (!generation?.polling_url || options.lookupSignal.aborted || !options.shouldResume()) return;
	const target: FollowTarget = {
		generationId: generation.id,
		pollingUrl: generation.polling_url,
		request: {
			prompt: generation.prompt,
			aspectRatio: generation.aspect_ratio,
			// Try Again after a failure asks for the same settings, with a new seed.
			settings: {
				model: generation.model.id,
				count: generation.settings.count,
				negativePrompt: generation.settings.negativePrompt ?? undefined,
				quality: generation.settings.quality ?? undefined,
			},
		},
	};
	const signal = options.onResume(target.request);
	const report = announceGeneration(dispatchUntilAborted(options.dispatch, signal), signal, {
		id: generation.id,
		prompt: generation.prompt,
	});
	report({
		type: "resumed",
		...target,
		startedAt: parseTimestamp(generation.created_at) ?? Date.now(),
		recipe: { model: generation.model, settings: generation.settings },
	});
	await followToTheEnd(target, report, signal);
}
