import sharp from "sharp";
import { downloadImage } from "../images/download-image";
import {
	type GenerationInput,
	type ImageProvider,
	type ImageSource,
	type InputImage,
	ProviderError,
	type ProviderJob,
	type ProviderJobState,
} from "../providers/types";

/** Helpers the provider adapter tests share; never imported by the product. */

export function createTestInput(overrides: Partial<GenerationInput> = {}): GenerationInput {
	return {
		prompt: "An hourglass on a study desk, steampunk",
		aspectRatio: "--ar 16:9",
		count: 4,
		seed: null,
		negativePrompt: null,
		quality: null,
		...overrides,
	};
}

export async function startTestJob(
	provider: ImageProvider,
	overrides: Partial<GenerationInput> = {},
): Promise<ProviderJob> {
	const input = createTestInput(overrides);
	const { jobId } = await provider.start(input);
	return { jobId, input };
}

export async function catchProviderError(promise: Promise<unknown>): Promise<ProviderError> {
	const error = await promise.then(
		() => undefined,
		(reason: unknown) => reason,
	);
	if (!(error instanceof ProviderError)) {
		throw new Error(`Expected a ProviderError, got ${String(error)}`);
	}
	return error;
}

export function expectCompleted(state: ProviderJobState): ImageSource[] {
	if (state.status !== "completed") {
		throw new Error(`Expected completed, got ${JSON.stringify(state)}`);
	}
	return state.images;
}

/** Checks until the job is no longer running; the fakes' lifecycles are set short in tests. */
export async function checkUntilDone(
	provider: ImageProvider,
	job: ProviderJob,
	maxChecks = 200,
): Promise<ProviderJobState> {
	for (let attempt = 0; attempt < maxChecks; attempt++) {
		const state = await provider.check(job);
		if (state.status !== "running") return state;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	throw new Error(`The job was still running after ${maxChecks} checks`);
}

/** The colour of the test references: far from every colour the fakes draw from a prompt. */
export const REFERENCE_COLOUR = { r: 20, g: 200, b: 40 } as const;

/** A reference image of one colour, as a run gives it to a provider (PNG unless asked). */
export async function createTestImage(
	options: { width?: number; height?: number; format?: "png" | "jpeg" } = {},
): Promise<InputImage> {
	const width = options.width ?? 96;
	const height = options.height ?? 64;
	const image = sharp({ create: { width, height, channels: 3, background: REFERENCE_COLOUR } });
	const data = await (options.format === "jpeg" ? image.jpeg() : image.png()).toBuffer();
	return {
		data: new Uint8Array(data),
		contentType: options.format === "jpeg" ? "image/jpeg" : "image/png",
		width,
		height,
	};
}

/** Whether an image is (close to) the test references' colour: it was made from one. */
export async function isMadeFromReference(data: Uint8Array): Promise<boolean> {
	const { channels } = await sharp(data).stats();
	const [r, g, b] = channels.map((channel) => channel.mean);
	const near = (value: number | undefined, wanted: number) =>
		value !== undefined && Math.abs(value - wanted) < 12;
	return near(r, REFERENCE_COLOUR.r) && near(g, REFERENCE_COLOUR.g) && near(b, REFERENCE_COLOUR.b);
}

type ReadImage = { width: number; height: number; format: string | undefined };

/**
 * Each image of a finished job with its size and whether it was made from the test reference
 * (createTestImage), read as the worker would get it.
 */
export async function readImagesFromReference(
	provider: ImageProvider,
	images: readonly ImageSource[],
): Promise<{ width: number; height: number; isFromReference: boolean }[]> {
	return Promise.all(
		images.map(async (image) => {
			const data = await readImageData(provider, image);
			const metadata = await sharp(data).metadata();
			return {
				width: metadata.width ?? 0,
				height: metadata.height ?? 0,
				isFromReference: await isMadeFromReference(data),
			};
		}),
	);
}

async function readImageData(provider: ImageProvider, image: ImageSource): Promise<Uint8Array> {
	if (image.kind === "bytes") return image.data;
	const downloaded = await downloadImage(image.url, {
		maxBytes: 10_000_000,
		timeoutMs: 5_000,
		allowPrivateHosts: provider.trustedPrivateHosts ?? [],
	});
	return downloaded.data;
}

/** Every image of a finished job as the worker would get it: downloaded (URLs) or as given. */
export async function readImages(
	provider: ImageProvider,
	images: readonly ImageSource[],
): Promise<ReadImage[]> {
	return Promise.all(
		images.map(async (image) => {
			const data =
				image.kind === "bytes"
					? image.data
					: (
							await downloadImage(image.url, {
								maxBytes: 10_000_000,
								timeoutMs: 5_000,
								allowPrivateHosts: provider.trustedPrivateHosts ?? [],
							})
						).data;
			const metadata = await sharp(data).metadata();
			return { width: metadata.width ?? 0, height: metadata.height ?? 0, format: metadata.format };
		}),
	);
}
