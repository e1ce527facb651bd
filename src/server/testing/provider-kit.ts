import sharp from "sharp";
import { downloadImage } from "../images/download-image";
import {
	type GenerationInput,
	type ImageProvider,
	type ImageSource,
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

type ReadImage = { width: number; height: number; format: string | undefined };

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
