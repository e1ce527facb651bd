import { createHash, randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { MAX_SEED } from "../../../shared/generations/generation-settings";
import { DEFAULT_IMAGE_DOWNLOAD_MAX_BYTES } from "../../../shared/image-input/image-types";
import type { Logger } from "../../logging/logger";
import { sniffImageType } from "../../net/sniff-image-type";
import { createBatchedJobs } from "../shared/batches";
import { defineBatchJobIds } from "../shared/job-id";
import { PIXEL_SIZES, type PixelSizeSet } from "../shared/pixel-sizes";
import { PROVIDER_MESSAGES, summarizeVendorText } from "../shared/provider-messages";
import { describeUrl, parseBaseUrl, resolveBelow } from "../shared/provider-urls";
import { isConnectFailure, markUnreachable } from "../shared/request-failure";
import { seedForRequest } from "../shared/seeds";
import {
	createVendorClient,
	parseReply,
	readErrorBody,
	type SendVendorRequest,
	toHttpStatusError,
	type VendorReply,
	type VendorRequestSettings,
} from "../shared/vendor-request";
import {
	type GenerationInput,
	type ImageProvider,
	type ImageSource,
	type InputImage,
	type InputProblem,
	type ProviderCallOptions,
	ProviderError,
	type ProviderJobState,
} from "../types";
import { COMFYUI_DEFAULT_SIZES } from "./comfyui-config";
import {
	assertInpaintWorkflow,
	type ComfyUiInpaintWorkflow,
	toInpaintImage,
} from "./comfyui-inpaint";
import { createComfyUiProgressSocket } from "./comfyui-progress-socket";
import {
	checkSeed,
	drawSeed,
	readSeedLimits,
	type SeedCheck,
	type SeedLimits,
	UNKNOWN_SEED_LIMITS,
} from "./comfyui-seed";
import {
	assertBindings,
	assertImageWorkflows,
	type ComfyUiBindings,
	type ComfyUiImageWorkflow,
	type ComfyUiUpscaleWorkflow,
	type ComfyWorkflow,
	DEFAULT_BINDINGS,
	DEFAULT_UPSCALE_WORKFLOW,
	DEFAULT_WORKFLOW,
	fillWorkflow,
	findImageOutputs,
	writeInputs,
} from "./comfyui-workflow";

export type ComfyUiProviderOptions = VendorRequestSettings & {
	/** The ComfyUI server, such as `http://127.0.0.1:8188` (a reverse proxy's path prefix is kept). */
	url: string;
	/** An API-format workflow; the shipped text-to-image one by default. */
	workflow?: ComfyWorkflow;
	/** Where each value goes; the shipped workflow's inputs by default. */
	bindings?: ComfyUiBindings;
	/**
	 * The workflow that makes images from a reference (Vary, Edit); none offers no image input.
	 * The reference is uploaded (`POST /upload/image`) and named in its LoadImage node.
	 */
	imageWorkflow?: ComfyUiImageWorkflow;
	/** The workflow that upscales an image, and its factors; none offers no upscale. */
	upscaleWorkflow?: ComfyUiUpscaleWorkflow;
	/**
	 * The workflow that repaints a masked region (Edit region, Expand); none offers neither. The
	 * image is uploaded with the mask as its alpha and named in its LoadImage node.
	 */
	inpaintWorkflow?: ComfyUiInpaintWorkflow;
	/** Written into every CheckpointLoaderSimple node when set. */
	checkpoint?: string;
	/** The pixel sizes to ask for; `sd15` fits the default workflow's SD 1.5 checkpoint. */
	sizes?: PixelSizeSet;
	/** One header for a reverse proxy in front of ComfyUI (ComfyUI itself has no auth). */
	authHeader?: { name: string; value: string };
	/** The largest image accepted from `/view`. */
	maxImageBytes?: number;
	/** Where what ComfyUI left out of a workflow it still ran is written. */
	logger?: Pick<Logger, "warn">;
};

/** The ComfyUI adapter, which can also check a seed a person chose against the workflow's limits. */
export type ComfyUiProvider = ImageProvider & {
	validateSeed(seed: unknown): Promise<SeedCheck>;
};

// The queue lists every pending workflow in full; a busy server's answer can be large.
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
// What a reverse proxy answers when the ComfyUI behind it is down.
const GATEWAY_STATUSES = new Set([502, 503, 504]);
// How long a person's request waits for the seed input's limits before going on without them.
const LIMITS_WAIT_MS = 5_000;
/**
 * Random seeds when the seed input's limits cannot be read while a person waits: every seed input
 * ComfyUI ships (samplers, API nodes) accepts 0 to 2^31 - 1.
 */
const CAUTIOUS_SEED_LIMITS: SeedLimits = { min: 0, max: 2_147_483_647 };

const NodeErrorsSchema = z
	.record(
		z.string(),
		z
			.object({
				class_type: z.string().optional(),
				errors: z
					.array(
						z.object({ message: z.string().optional(), details: z.string().optional() }).loose(),
					)
					.optional(),
				dependent_outputs: z
					.array(z.union([z.string(), z.number()]).transform(String))
					.optional()
					.catch(undefined),
			})
			.loose(),
	)
	.optional()
	.catch(undefined);
type NodeErrors = z.infer<typeof NodeErrorsSchema>;

// ComfyUI queues a workflow with some valid outputs and lists the other outputs' problems.
const SubmitResponseSchema = z.object({
	prompt_id: z.string().min(1),
	number: z.number().optional(),
	node_errors: NodeErrorsSchema,
});

const SubmitErrorSchema = z.object({
	error: z
		.union([
			z.string(),
			z.object({ type: z.string().optional(), message: z.string().optional() }).loose(),
		])
		.optional(),
	node_errors: NodeErrorsSchema,
});

// What `POST /upload/image` answers: the name the file was saved under, in its subfolder.
const UploadResponseSchema = z.object({
	name: z.string().min(1),
	subfolder: z.string().optional().default(""),
	type: z.string().optional(),
});

/** ComfyUI's input subfolder the references go in, apart from a person's own inputs. */
const UPLOAD_SUBFOLDER = "atelier";

const OutputImageSchema = z.object({
	filename: z.string(),
	subfolder: z.string().optional().default(""),
	type: z.string().optional().default("output"),
});

const HistoryEntrySchema = z.object({
	outputs: z
		.record(z.string(), z.object({ images: z.array(OutputImageSchema).optional() }).loose())
		.optional()
		.default({}),
	status: z
		.object({
			status_str: z.string().optional(),
			completed: z.boolean().optional(),
			messages: z.array(z.tuple([z.string(), z.unknown()])).optional(),
		})
		.optional(),
});
type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

const HistorySchema = z.record(z.string(), HistoryEntrySchema);

// Each queue item is [number, prompt_id, prompt, extra_data, outputs]; only the id matters here.
const QueueItemSchema = z.array(z.unknown()).transform((item) => item[1]);
const QueueSchema = z.object({
	queue_running: z.array(QueueItemSchema),
	queue_pending: z.array(QueueItemSchema),
});

const ExecutionErrorSchema = z
	.object({
		node_id: z.union([z.string(), z.number()]).optional(),
		node_type: z.string().optional(),
		exception_type: z.string().optional(),
		exception_message: z.string().optional(),
	})
	.loose();

/** The saved job id: the prompt ids ComfyUI gave (one, or one per image without a batch input). */
const COMFYUI_JOB_IDS = defineBatchJobIds("ComfyUI", "promptIds", z.string().min(1));

/**
 * A self-hosted ComfyUI: the workflow with this job's prompt, negative prompt, size, batch and
 * seed (checked against the limits `/object_info` gives the seed input) is queued with
 * `POST /prompt`. The same seed and workflow make the same images; without a batch input each of
 * the generation's prompts makes one image with the seed plus its index. A generation without a
 * seed (its model's entry turned seeds off) gets a fresh random one per prompt, so ComfyUI never
 * answers from its cache. It is followed in `/history/{id}` and `/queue`, its steps and preview
 * frames heard on ComfyUI's WebSocket meanwhile (comfyui-progress-socket.ts),
 * and its images are read from `/view` here, so an optional proxy header reaches them too. Cancel
 * interrupts it when running or deletes it when queued. A ComfyUI that cannot be reached is marked
 * so, to be waited for: the prompt it holds goes on without us.
 */
export function createComfyUiProvider(options: ComfyUiProviderOptions): ComfyUiProvider {
	const baseUrl = parseBaseUrl(options.url, "COMFYUI_URL");
	const workflow = options.workflow ?? DEFAULT_WORKFLOW;
	const bindings = options.bindings ?? DEFAULT_BINDINGS;
	assertBindings(workflow, bindings);
	const { imageWorkflow, upscaleWorkflow, inpaintWorkflow } = options;
	assertImageWorkflows(imageWorkflow, upscaleWorkflow);
	assertInpaintWorkflow(inpaintWorkflow);
	const sizes = PIXEL_SIZES[options.sizes ?? COMFYUI_DEFAULT_SIZES];
	const maxImageBytes = options.maxImageBytes ?? DEFAULT_IMAGE_DOWNLOAD_MAX_BYTES;
	// One client id for this process: ComfyUI sends a prompt's WebSocket events to the client that
	// queued it, so a prompt queued by another process (before a restart) is followed by polling.
	const clientId = randomUUID();
	const credentials = {
		origin: baseUrl.origin,
		headers: options.authHeader ? { [options.authHeader.name]: options.authHeader.value } : {},
	};
	const progressSocket = createComfyUiProgressSocket({
		baseUrl,
		clientId,
		headers: credentials.headers,
	});
	const logger = options.logger ?? { warn: () => {} };
	const send = markOutages(
		createVendorClient(options, { maxResponseBytes: MAX_RESPONSE_BYTES, credentials }),
	);
	const sendForImage = markOutages(
		createVendorClient(options, { maxResponseBytes: maxImageBytes, credentials }),
	);
	let seedLimits: Promise<SeedLimits> | undefined;

	/**
	 * The seed input's limits, read from `/object_info` before the first prompt, then kept. The
	 * read is shared by every caller, so no one caller's signal may abort it (its own request
	 * timeout bounds it); a failed read (ComfyUI down) is tried again by the next caller.
	 */
	function loadSeedLimits(): Promise<SeedLimits> {
		seedLimits ??= readSeedInputLimits().catch((error: unknown) => {
			seedLimits = undefined;
			throw error;
		});
		return seedLimits;
	}

	async function readSeedInputLimits(): Promise<SeedLimits> {
		const classType = workflow[bindings.seed.node]?.class_type ?? "";
		const url = resolveBelow(baseUrl, `object_info/${encodeURIComponent(classType)}`);
		const what = `Reading ComfyUI's definition of ${classType}`;
		const reply = await send(what, { method: "GET", url });
		// A 404 is a server or proxy without the route: seeds are drawn as before it existed.
		if (!reply.ok && reply.status !== 404) {
			throw markGatewayOutage(reply, toHttpStatusError(what, reply, undefined, "start"));
		}
		const limits = reply.ok
			? readSeedLimits(
					reply.body.isJson ? reply.body.value : undefined,
					classType,
					bindings.seed.input,
				)
			: undefined;
		if (limits) return limits;
		logger.warn("ComfyUI does not list the seed input's limits; seeds are drawn below 2^48", {
			seedInput: `${bindings.seed.node}.${bindings.seed.input}`,
			classType,
			status: reply.status,
		});
		return UNKNOWN_SEED_LIMITS;
	}

	/**
	 * The seed of the generation's `index`-th prompt. A seed outside the input's limits was let
	 * through only when ComfyUI could not be asked at creation; it fails here with the same words.
	 */
	function chooseSeed(seed: number | null, index: number, limits: SeedLimits): number {
		if (seed === null) return drawSeed(limits);
		const check = checkSeed(seed, limits);
		if (!check.ok) {
			throw new ProviderError(`The seed ${seed} is outside the workflow's seed input`, {
				retryable: false,
				userMessage: check.message,
			});
		}
		return seedForRequest(seed, index, limits);
	}

	/**
	 * The limits while a person waits for an answer: undefined when ComfyUI cannot say within a
	 * few seconds (down, or slow), so creating a generation never hangs on it.
	 */
	async function readLimitsPromptly(): Promise<SeedLimits | undefined> {
		let timer: NodeJS.Timeout | undefined;
		const late = new Promise<undefined>((resolve) => {
			timer = setTimeout(() => resolve(undefined), LIMITS_WAIT_MS);
		});
		try {
			return await Promise.race([loadSeedLimits(), late]);
		} catch {
			return undefined;
		} finally {
			clearTimeout(timer);
		}
	}

	async function checkInput(input: GenerationInput): Promise<InputProblem | null> {
		if (input.seed === null) return null;
		const limits = await readLimitsPromptly();
		// Unknown limits: the seed is checked again when the prompt is queued.
		if (!limits) return null;
		const check = checkSeed(input.seed, limits);
		return check.ok ? null : { field: "seed", message: check.message };
	}

	async function randomSeed(): Promise<number> {
		const limits = (await readLimitsPromptly()) ?? CAUTIOUS_SEED_LIMITS;
		return drawSeed({ min: Math.max(0, limits.min), max: Math.min(limits.max, MAX_SEED) });
	}

	/**
	 * Uploads the image a generation starts from into ComfyUI's input folder (`POST /upload/image`,
	 * multipart: the `image` file, `type` input, `overwrite`) and answers the name a LoadImage
	 * node takes: `subfolder/name` as ComfyUI answered them. The file is named by its content, so
	 * the prompts of one generation (and a retry) upload the same file over itself.
	 */
	async function uploadImage(
		image: InputImage,
		callOptions: ProviderCallOptions | undefined,
	): Promise<string> {
		const digest = createHash("sha256").update(image.data).digest("hex").slice(0, 24);
		const extension = image.contentType.slice("image/".length);
		const form = new FormData();
		form.append(
			"image",
			new Blob([Buffer.from(image.data)], { type: image.contentType }),
			`atelier-${digest}.${extension}`,
		);
		form.append("type", "input");
		form.append("subfolder", UPLOAD_SUBFOLDER);
		form.append("overwrite", "true");
		const url = resolveBelow(baseUrl, "upload/image");
		const what = `Uploading the reference image to ${describeUrl(url)}`;
		const reply = await send(what, { method: "POST", url, form }, callOptions);
		if (!reply.ok) {
			throw markGatewayOutage(
				reply,
				toHttpStatusError(what, reply, readComfyError(reply), "start"),
			);
		}
		const uploaded = parseReply(what, reply, UploadResponseSchema, { retryable: true });
		return uploaded.subfolder ? `${uploaded.subfolder}/${uploaded.name}` : uploaded.name;
	}

	/** The graph a generation's prompt queues: text, image-to-image or upscale, filled in. */
	async function buildGraph(
		input: GenerationInput,
		{ size: batchSize, index }: { size: number; index: number },
		callOptions: ProviderCallOptions | undefined,
	): Promise<ComfyWorkflow> {
		const size = sizes[input.aspectRatio];
		const job = {
			filenamePrefix: `atelier/${randomBytes(6).toString("hex")}`,
			checkpoint: options.checkpoint,
		};
		const instruction = input.image;
		if (instruction?.kind === "upscale") {
			if (!upscaleWorkflow?.factors.includes(instruction.factor)) {
				throw new ProviderError(`ComfyUI has no upscale workflow for ${instruction.factor}x`, {
					retryable: false,
				});
			}
			const imageName = await uploadImage(instruction.image, callOptions);
			return writeInputs(
				upscaleWorkflow.workflow,
				[
					[upscaleWorkflow.bindings.image, imageName],
					[upscaleWorkflow.bindings.factor, instruction.factor],
				],
				job,
			);
		}
		const limits = await loadSeedLimits();
		const seed = chooseSeed(input.seed, index, limits);
		if (instruction?.kind === "region") {
			if (!inpaintWorkflow) {
				throw new ProviderError("ComfyUI has no inpaint workflow", { retryable: false });
			}
			// As many pixels as the ratio's size, which the workflow's checkpoint is made for.
			const square = sizes["--ar 1:1"];
			const upload = await toInpaintImage(
				instruction.image,
				instruction.mask,
				square.width * square.height,
			);
			const imageName = await uploadImage(upload, callOptions);
			const refs = inpaintWorkflow.bindings;
			return writeInputs(
				inpaintWorkflow.workflow,
				[
					[refs.image, imageName],
					[refs.prompt, input.prompt],
					[input.negativePrompt === null ? null : refs.negativePrompt, input.negativePrompt],
					[refs.seed, seed],
					[refs.batch, batchSize],
				],
				job,
			);
		}
		if (instruction?.kind === "reference") {
			if (!imageWorkflow) {
				throw new ProviderError("ComfyUI has no image-to-image workflow", { retryable: false });
			}
			const imageName = await uploadImage(instruction.image, callOptions);
			const refs = imageWorkflow.bindings;
			return writeInputs(
				imageWorkflow.workflow,
				[
					[refs.image, imageName],
					[refs.denoise, instruction.strength],
					[refs.prompt, input.prompt],
					// Without one, the workflow's own negative text stays.
					[input.negativePrompt === null ? null : refs.negativePrompt, input.negativePrompt],
					[refs.seed, seed],
					[refs.width, size.width],
					[refs.height, size.height],
					[refs.batch, batchSize],
				],
				job,
			);
		}
		return fillWorkflow(workflow, bindings, {
			prompt: input.prompt,
			negativePrompt: input.negativePrompt,
			width: size.width,
			height: size.height,
			batchSize,
			seed,
			...job,
		});
	}

	async function submit(
		input: GenerationInput,
		batch: { size: number; index: number },
		callOptions: ProviderCallOptions | undefined,
	): Promise<string> {
		const graph = await buildGraph(input, batch, callOptions);
		const url = resolveBelow(baseUrl, "prompt");
		const what = `Queueing a workflow at ${describeUrl(url)}`;
		const reply = await send(
			what,
			{ method: "POST", url, json: { prompt: graph, client_id: clientId } },
			callOptions,
		);
		if (!reply.ok) throw toSubmitError(what, reply);
		const queued = parseReply(what, reply, SubmitResponseSchema, { retryable: false });
		await checkOutputsKept(what, graph, queued.prompt_id, queued.node_errors, callOptions);
		return queued.prompt_id;
	}

	/**
	 * ComfyUI queues a workflow when any output is valid and runs only those: a prompt left with
	 * no image output is refused with ComfyUI's reason (and taken off its queue), since it would
	 * end with no image; one that keeps an image output goes on, the rest logged.
	 */
	async function checkOutputsKept(
		what: string,
		graph: ComfyWorkflow,
		promptId: string,
		nodeErrors: NodeErrors,
		callOptions: ProviderCallOptions | undefined,
	): Promise<void> {
		const problems = describeNodeErrors(nodeErrors);
		if (problems.length === 0) return;
		const cutOff = new Set(
			Object.values(nodeErrors ?? {}).flatMap((node) => node.dependent_outputs ?? []),
		);
		const imageOutputs = findImageOutputs(graph);
		const isLeftWithoutImages =
			imageOutputs.length > 0 && imageOutputs.every((id) => cutOff.has(id));
		if (!isLeftWithoutImages) {
			logger.warn("ComfyUI runs the workflow without some of its outputs", {
				promptId,
				cutOffOutputs: [...cutOff],
				problems,
			});
			return;
		}
		await cancelPrompts([promptId], callOptions).catch(() => undefined);
		throw toRefusal(
			`${what} answered HTTP 200 but cut off every image output (${imageOutputs.join(", ")}): ${problems.join("; ")}`,
			problems,
		);
	}

	async function getJson<Schema extends z.ZodType>(
		what: string,
		path: string,
		schema: Schema,
		callOptions: ProviderCallOptions | undefined,
	): Promise<z.infer<Schema>> {
		const reply = await send(
			what,
			{ method: "GET", url: resolveBelow(baseUrl, path) },
			callOptions,
		);
		if (!reply.ok) {
			throw markGatewayOutage(reply, toHttpStatusError(what, reply, readComfyError(reply), "poll"));
		}
		return parseReply(what, reply, schema, { retryable: true });
	}

	async function readHistory(
		promptId: string,
		callOptions: ProviderCallOptions | undefined,
	): Promise<HistoryEntry | undefined> {
		const history = await getJson(
			`Reading ComfyUI history of ${promptId}`,
			`history/${encodeURIComponent(promptId)}`,
			HistorySchema,
			callOptions,
		);
		return history[promptId];
	}

	async function readQueue(callOptions: ProviderCallOptions | undefined) {
		return getJson("Reading the ComfyUI queue", "queue", QueueSchema, callOptions);
	}

	async function checkPrompt(
		promptId: string,
		batchSize: number,
		callOptions: ProviderCallOptions | undefined,
	): Promise<ProviderJobState> {
		const finished = await readHistory(promptId, callOptions);
		if (finished) return toFinishedState(promptId, finished, batchSize, callOptions);
		const queue = await readQueue(callOptions);
		if (queue.queue_running.includes(promptId) || queue.queue_pending.includes(promptId)) {
			return { status: "running" };
		}
		// It may have finished between the two reads; only then is it truly unknown.
		const finishedMeanwhile = await readHistory(promptId, callOptions);
		if (finishedMeanwhile) {
			return toFinishedState(promptId, finishedMeanwhile, batchSize, callOptions);
		}
		return {
			status: "failed",
			message: PROVIDER_MESSAGES.lost,
			reason: `ComfyUI has prompt ${promptId} neither in its queue nor in its history (restarted?)`,
		};
	}

	async function toFinishedState(
		promptId: string,
		entry: HistoryEntry,
		batchSize: number,
		callOptions: ProviderCallOptions | undefined,
	): Promise<ProviderJobState> {
		const messages = entry.status?.messages ?? [];
		if (entry.status?.status_str === "error") {
			const interrupted = messages.some(([kind]) => kind === "execution_interrupted");
			if (interrupted) {
				return {
					status: "failed",
					message: PROVIDER_MESSAGES.cancelled,
					reason: `ComfyUI prompt ${promptId} was interrupted`,
				};
			}
			return {
				status: "failed",
				message: PROVIDER_MESSAGES.failed,
				reason: `ComfyUI prompt ${promptId} failed: ${describeExecutionError(messages)}`,
			};
		}
		const outputs = Object.values(entry.outputs).flatMap((output) => output.images ?? []);
		// Saved images first; a workflow that only previews leaves temporary ones.
		const saved = outputs.filter((image) => image.type === "output");
		const chosen = (saved.length > 0 ? saved : outputs).slice(0, batchSize);
		if (chosen.length === 0) {
			return {
				status: "failed",
				message: PROVIDER_MESSAGES.noImages,
				reason: `ComfyUI prompt ${promptId} finished without an image output (does the workflow save images?)`,
			};
		}
		const images: ImageSource[] = [];
		for (const image of chosen) images.push(await readImage(image, callOptions));
		return { status: "completed", images };
	}

	async function readImage(
		image: z.infer<typeof OutputImageSchema>,
		callOptions: ProviderCallOptions | undefined,
	): Promise<ImageSource> {
		const url = resolveBelow(baseUrl, "view");
		url.search = new URLSearchParams({
			filename: image.filename,
			subfolder: image.subfolder,
			type: image.type,
		}).toString();
		const what = `Reading ComfyUI image ${image.subfolder}/${image.filename}`;
		const reply = await sendForImage(what, { method: "GET", url, isBinary: true }, callOptions);
		if (reply.status === 404) {
			throw new ProviderError(`${what} answered HTTP 404 (the file was deleted)`, {
				retryable: false,
				userMessage: PROVIDER_MESSAGES.expired,
			});
		}
		if (!reply.ok)
			throw markGatewayOutage(reply, toHttpStatusError(what, reply, undefined, "poll"));
		const data = reply.body.isJson ? new Uint8Array(0) : reply.body.bytes;
		const contentType = sniffImageType(data);
		if (!contentType) {
			throw new ProviderError(`${what} answered bytes that are not an image`, { retryable: false });
		}
		return { kind: "bytes", data, contentType };
	}

	async function cancelPrompts(
		promptIds: readonly string[],
		callOptions: ProviderCallOptions | undefined,
	): Promise<void> {
		const queue = await readQueue(callOptions);
		const post = (path: string, json: unknown) =>
			send(
				`Cancelling ComfyUI prompt at ${path}`,
				{ method: "POST", url: resolveBelow(baseUrl, path), json },
				callOptions,
			);
		const pending = promptIds.filter((id) => queue.queue_pending.includes(id));
		if (pending.length > 0) await post("queue", { delete: pending });
		for (const id of promptIds.filter((candidate) => queue.queue_running.includes(candidate))) {
			// With the id, ComfyUI interrupts only that prompt (older servers ignore it and
			// interrupt whatever runs, which is why we first check that ours is the one running).
			await post("interrupt", { prompt_id: id });
		}
	}

	return {
		name: "comfyui",
		capabilities: {
			seed: true,
			negativePrompt: bindings.negativePrompt !== null,
			qualities: [],
			maxCount: 4,
			textToImage: true,
			imageInput: imageWorkflow !== undefined,
			// Every image-to-image workflow binds the sampler's denoise to the strength.
			referenceStrength: imageWorkflow !== undefined,
			upscaleFactors: upscaleWorkflow?.factors ?? [],
			// The shipped upscale workflow resamples (ImageScaleBy, Lanczos); one's own may use a model.
			upscaleResamples: upscaleWorkflow?.workflow === DEFAULT_UPSCALE_WORKFLOW.workflow,
			// An inpaint workflow repaints any masked region, a widened frame's new area among them.
			mask: inpaintWorkflow !== undefined,
			outpaint: inpaintWorkflow !== undefined,
		},
		checkInput,
		randomSeed,
		// Images are read here (with the proxy header), never downloaded by URL.
		trustedPrivateHosts: [],
		...createBatchedJobs({
			// With a batch input one prompt makes every image; without, one prompt per image.
			imagesPerRequest: (input) => {
				if (input.image?.kind === "upscale") return 1;
				const batch =
					input.image?.kind === "region"
						? inpaintWorkflow?.bindings.batch
						: input.image
							? imageWorkflow?.bindings.batch
							: bindings.batch;
				return batch ? Number.POSITIVE_INFINITY : 1;
			},
			// One after another: each may read its images, and a GPU box is not a CDN.
			isCheckedInTurn: true,
			submit,
			check: (promptId, callOptions, { input, requestCount }) =>
				checkPrompt(
					promptId,
					requestCount === 1 && input.image?.kind !== "upscale" ? Math.max(1, input.count) : 1,
					callOptions,
				),
			cancel: cancelPrompts,
			jobIds: COMFYUI_JOB_IDS,
		}),
		watch(job, { signal, onProgress }) {
			const stop = progressSocket.watch(COMFYUI_JOB_IDS.decode(job.jobId), onProgress);
			signal.addEventListener("abort", stop, { once: true });
			return () => {
				signal.removeEventListener("abort", stop);
				stop();
			};
		},
		validateSeed: async (seed) => checkSeed(seed, await loadSeedLimits()),
	};
}

/** A request function whose failures to connect are marked as ComfyUI being unreachable. */
function markOutages(send: SendVendorRequest): SendVendorRequest {
	return async (what, request, callOptions) => {
		try {
			return await send(what, request, callOptions);
		} catch (error) {
			throw error instanceof ProviderError && isConnectFailure(error)
				? markUnreachable(error)
				: error;
		}
	};
}

/** A reading request's error, marked unreachable when a proxy says the ComfyUI behind it is down. */
function markGatewayOutage(reply: VendorReply, error: ProviderError): ProviderError {
	return GATEWAY_STATUSES.has(reply.status) ? markUnreachable(error) : error;
}

function describeNodeErrors(nodeErrors: NodeErrors): string[] {
	return Object.entries(nodeErrors ?? {}).flatMap(([nodeId, node]) =>
		(node.errors ?? []).map((nodeError) => {
			const detail = nodeError.details ? `: ${nodeError.details}` : "";
			return `node ${nodeId} (${node.class_type ?? "?"}): ${nodeError.message ?? "invalid"}${detail}`;
		}),
	);
}

/** A workflow ComfyUI will not run: its first node error is what the person needs to see. */
function toRefusal(logMessage: string, problems: readonly string[], summary?: string) {
	const shown = summarizeVendorText(problems[0] ?? summary);
	return new ProviderError(logMessage, {
		retryable: false,
		userMessage: `ComfyUI refused the workflow: ${shown}`,
	});
}

function readComfyError(reply: VendorReply): string | undefined {
	const body = readErrorBody(reply, SubmitErrorSchema);
	const error = body?.error;
	return summarizeVendorText(typeof error === "string" ? error : error?.message);
}

/**
 * A refused workflow: ComfyUI's first node error names the node and what is wrong with it (a
 * checkpoint that is not installed, say), which is exactly what the person running it needs.
 */
function toSubmitError(what: string, reply: VendorReply): ProviderError {
	const body = readErrorBody(reply, SubmitErrorSchema);
	const error = body?.error;
	const summary = summarizeVendorText(typeof error === "string" ? error : error?.message);
	const problems = describeNodeErrors(body?.node_errors);
	if (reply.status === 400 && (summary || problems.length > 0)) {
		return toRefusal(
			`${what} answered HTTP 400: ${[summary, ...problems].join("; ")}`,
			problems,
			summary,
		);
	}
	return toHttpStatusError(what, reply, summary, "start");
}

function describeExecutionError(messages: readonly [string, unknown][]): string {
	const found = messages.find(([kind]) => kind === "execution_error");
	const parsed = ExecutionErrorSchema.safeParse(found?.[1]);
	if (!parsed.success) return "no execution_error message";
	const { node_id, node_type, exception_type, exception_message } = parsed.data;
	return `node ${node_id ?? "?"} (${node_type ?? "?"}) raised ${exception_type ?? "an error"}: ${summarizeVendorText(exception_message) ?? ""}`;
}
