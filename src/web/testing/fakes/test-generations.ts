import {
	ASPECT_RATIO_VALUES,
	type AspectRatio,
	sizeForAspectRatio,
} from "../../../shared/generations/aspect-ratios";
import type { Generation, GenerationImage } from "../../../shared/generations/generation-responses";
import { IMAGE_COUNTS } from "../../../shared/generations/generation-settings";
import type { PublicModel } from "../../../shared/generations/models";

// Records and helpers shared by the fakes of the generations API.

let nextGenerationNumber = 1;

function createUuid(number: number): string {
	return `00000000-0000-4000-8000-${number.toString(16).padStart(12, "0")}`;
}

/** A fresh id, as the server makes them. */
export function createTestGenerationId(): string {
	return createUuid(nextGenerationNumber++);
}

/** The images of a generation (four unless said) in its ratio, with thumbnails, as the server lists them. */
export function createTestImages(
	id: string,
	aspectRatio: AspectRatio,
	count = 4,
): GenerationImage[] {
	const full = sizeForAspectRatio(aspectRatio, 1024);
	const thumbnail = sizeForAspectRatio(aspectRatio, 384);
	return Array.from({ length: count }, (_, index) => ({
		url: `/api/images/generations/${id}/${index}.png`,
		width: full.width,
		height: full.height,
		thumbnailUrl: `/api/images/generations/${id}/${index}-thumb.webp`,
		thumbnailWidth: thumbnail.width,
		thumbnailHeight: thumbnail.height,
	}));
}

/** A generation completed just now with four images in its ratio; pass only what the test is about. */
export function createTestGeneration(overrides: Partial<Generation> = {}): Generation {
	const number = nextGenerationNumber++;
	const id = overrides.id ?? createUuid(number);
	const aspectRatio = overrides.aspect_ratio ?? "--ar 1:1";
	const now = new Date().toISOString();
	return {
		id,
		prompt: `A lighthouse on a cliff at dusk, number ${number}`,
		aspect_ratio: aspectRatio,
		status: "completed",
		error: null,
		images: createTestImages(id, aspectRatio),
		created_at: now,
		completed_at: now,
		api_id: `local_${id}`,
		polling_url: `/api/generations/${id}/status`,
		user_id: "user-1",
		is_favorite: false,
		model: { id: "local", label: "Offline engine" },
		settings: { count: 4, seed: 1234 + number, negativePrompt: null, quality: null },
		progress: null,
		parent: null,
		childrenCount: 0,
		style: null,
		batchId: null,
		...overrides,
	};
}

/**
 * A model as GET /api/models shows it: the offline engine (the model of createTestGeneration's
 * generations) with every ratio, 1 to 4 images, a seed and a negative prompt, unless told. A model
 * that takes an image honours a reference strength unless told; its upscale adds detail unless
 * told (`upscaleResamples`).
 */
export function createTestModel(overrides: Partial<PublicModel> = {}): PublicModel {
	return {
		referenceStrength: overrides.imageInput === true,
		upscaleResamples: false,
		mask: false,
		outpaint: false,
		id: "local",
		label: "Offline engine",
		description: null,
		pricePerImage: null,
		ratios: [...ASPECT_RATIO_VALUES],
		counts: [...IMAGE_COUNTS],
		seed: true,
		negativePrompt: true,
		qualities: [],
		textToImage: true,
		imageInput: false,
		upscale: [],
		...overrides,
	};
}

/** Resolves when the test calls `release()`: holds a request open so a busy state can be seen. */
export function createGate() {
	let release: () => void = () => {};
	const opened = new Promise<void>((resolve) => {
		release = resolve;
	});
	return { opened, release };
}

/**
 * A generation still running on the server, started at 12:00:00 on 5 January 2025: one for the
 * generator to pick up again.
 */
export function createRunningGeneration(overrides: Partial<Generation> = {}): Generation {
	return createTestGeneration({
		prompt: "A lighthouse on a cliff at dusk",
		status: "running",
		images: [],
		created_at: "2025-01-05T12:00:00.000Z",
		completed_at: null,
		...overrides,
	});
}
