/** The examples of the API document: one generation, its images and a child made from it. */
export const GENERATION_ID = "0f8b8e6e-3a55-4c53-9a8a-2f1f6a1f6c2d";
export const RUN_ID = "6d1c3e9a-57f2-4ab4-9a64-97c0c3a0b0e1";
export const SETTINGS_EXAMPLE = { count: 4, seed: 1234567, negativePrompt: null, quality: null };
export const MODEL_EXAMPLE = { id: "local", label: "Offline engine" };
export const IMAGE_EXAMPLE = {
	url: `/api/images/generations/${GENERATION_ID}/${RUN_ID}/0.png`,
	width: 1024,
	height: 1024,
	displayUrl: `/api/images/generations/${GENERATION_ID}/${RUN_ID}/0-display.webp`,
	displayWidth: 1024,
	displayHeight: 1024,
	thumbnailUrl: `/api/images/generations/${GENERATION_ID}/${RUN_ID}/0-thumb.webp`,
	thumbnailWidth: 256,
	thumbnailHeight: 256,
};
export const GENERATION_EXAMPLE = {
	id: GENERATION_ID,
	prompt: "A lighthouse at dusk, oil painting",
	aspect_ratio: "--ar 16:9",
	status: "completed",
	error: null,
	images: [IMAGE_EXAMPLE],
	created_at: "2026-01-15T09:30:00.000Z",
	completed_at: "2026-01-15T09:30:12.000Z",
	api_id: "local-1",
	polling_url: `/api/generations/${GENERATION_ID}/status`,
	user_id: "JkqMnS2yq1vX0b9d",
	is_favorite: false,
	model: MODEL_EXAMPLE,
	settings: SETTINGS_EXAMPLE,
	progress: null,
	parent: null,
	childrenCount: 1,
	style: null,
	batchId: null,
};
export const CHILD_ID = "3b9d6f0e-1c2a-4e5f-8a7b-6c5d4e3f2a1b";
export const CHILD_EXAMPLE = {
	...GENERATION_EXAMPLE,
	id: CHILD_ID,
	images: [
		{
			...IMAGE_EXAMPLE,
			url: `/api/images/generations/${CHILD_ID}/${RUN_ID}/0.jpg`,
			width: 2048,
			height: 1152,
			displayUrl: `/api/images/generations/${CHILD_ID}/${RUN_ID}/0-display.webp`,
			displayWidth: 1600,
			displayHeight: 900,
			thumbnailUrl: `/api/images/generations/${CHILD_ID}/${RUN_ID}/0-thumb.webp`,
		},
	],
	created_at: "2026-01-15T09:31:00.000Z",
	completed_at: "2026-01-15T09:31:03.000Z",
	api_id: "local-2",
	polling_url: `/api/generations/${CHILD_ID}/status`,
	settings: { ...SETTINGS_EXAMPLE, count: 1 },
	parent: { generationId: GENERATION_ID, imageIndex: 0, action: "upscale", exists: true },
	childrenCount: 0,
	style: null,
	batchId: null,
};
