import { randomUUID } from "node:crypto";
import sharp from "sharp";
import type { AspectRatio } from "../../shared/generations/aspect-ratios";
import type { GenerationStatus } from "../../shared/generations/generation-responses";
import type { Quality } from "../../shared/generations/generation-settings";
import type { StoredImage } from "../db/schema";
import { pollingUrlFor } from "../generations/request/generation-presenter";
import { runFolder, sumStoredBytes } from "../generations/run/store-images";
import type { TestServer } from "./test-server";

export type SeededGeneration = {
	id: string;
	prompt: string;
	images: StoredImage[];
	/** The bytes stored for each image, in order. */
	imageBytes: Buffer[];
};

let colorCounter = 0;
let lastDefaultTime = 0;

/** Now, but later than the last default: rows seeded one after another keep their order. */
function nextDefaultTime(): Date {
	lastDefaultTime = Math.max(Date.now(), lastDefaultTime + 1);
	return new Date(lastDefaultTime);
}

/** A small PNG of one colour, different on every call, so downloads can be told apart. */
async function createPng(): Promise<Buffer> {
	colorCounter += 1;
	return sharp({
		create: {
			width: 8,
			height: 8,
			channels: 3,
			background: { r: colorCounter % 256, g: (colorCounter * 7) % 256, b: 90 },
		},
	})
		.png()
		.toBuffer();
}

/**
 * A generation written straight into the database, with its images in storage as a run stores
 * them: for tests about the history, which need many generations of chosen prompts and dates.
 */
export async function seedGeneration(
	server: Pick<TestServer, "database" | "storage">,
	options: {
		userId: string;
		prompt: string;
		aspectRatio?: AspectRatio;
		modelId?: string;
		modelLabel?: string;
		/** The image count the generation asked for (the column's default when not given). */
		count?: number;
		seed?: number | null;
		negativePrompt?: string | null;
		quality?: Quality | null;
		createdAt?: Date;
		status?: GenerationStatus;
		imageCount?: number;
		isFavorite?: boolean;
		/** When it finished; a completed one's creation time when not given. */
		completedAt?: Date;
		/** A failed generation's stored message ("Generation failed" when not given). */
		error?: string;
		/** The model's price per image when it was made (none when not given). */
		pricePerImage?: number;
		/** Record the bytes stored, as runs do since sizes are recorded (not, when not given). */
		isSizeRecorded?: boolean;
	},
): Promise<SeededGeneration> {
	const id = randomUUID();
	const folder = runFolder(id, randomUUID());
	const createdAt = options.createdAt ?? nextDefaultTime();
	const status = options.status ?? "completed";
	const imageCount = options.imageCount ?? (status === "completed" ? 4 : 0);
	const images: StoredImage[] = [];
	const imageBytes: Buffer[] = [];
	for (let index = 0; index < imageCount; index++) {
		const bytes = await createPng();
		const key = `${folder}${index}.png`;
		const thumbnailKey = `${folder}${index}-thumb.webp`;
		await server.storage.put(key, bytes, "image/png");
		await server.storage.put(thumbnailKey, bytes, "image/webp");
		images.push({
			key,
			contentType: "image/png",
			width: 8,
			height: 8,
			thumbnailKey,
			thumbnailWidth: 8,
			thumbnailHeight: 8,
			...(options.isSizeRecorded ? { bytes: bytes.length * 2 } : {}),
		});
		imageBytes.push(bytes);
	}
	await server.database.db
		.insertInto("generations")
		.values({
			id,
			user_id: options.userId,
			prompt: options.prompt,
			aspect_ratio: options.aspectRatio ?? "--ar 1:1",
			status,
			provider: "local",
			model_id: options.modelId ?? "local",
			model_label: options.modelLabel ?? "Offline engine",
			image_count: options.count,
			seed: options.seed ?? null,
			negative_prompt: options.negativePrompt ?? null,
			quality: options.quality ?? null,
			api_id: `local_${id}`,
			polling_url: pollingUrlFor(id),
			images: JSON.stringify(images),
			error: status === "failed" ? (options.error ?? "Generation failed") : null,
			price_per_image: options.pricePerImage ?? null,
			stored_bytes: options.isSizeRecorded ? sumStoredBytes(images) : null,
			is_favorite: options.isFavorite ?? false,
			lease_owner: null,
			lease_until: null,
			created_at: createdAt,
			updated_at: createdAt,
			started_at: createdAt,
			completed_at: options.completedAt ?? (status === "completed" ? createdAt : null),
		})
		.execute();
	return { id, prompt: options.prompt, images, imageBytes };
}

/** `createdAt` for seeded rows: `minutesAgo` before now, so the newest-first order is chosen. */
export function minutesAgo(minutes: number): Date {
	return new Date(Date.now() - minutes * 60_000);
}
