import { delay, HttpResponse, http } from "msw";
import { ERRORS, type ErrorCode, errorBody } from "../../../shared/core/errors";
import { ASPECT_RATIO_VALUES, type AspectRatio } from "../../../shared/generations/aspect-ratios";
import {
	type ActiveGenerations,
	type Generation,
	type GenerationFamily,
	type GenerationPage,
	type GenerationProgress,
	type GenerationStatus,
	isInProgress,
	type PollResponse,
} from "../../../shared/generations/generation-responses";
import { QUALITIES, type Quality } from "../../../shared/generations/generation-settings";
import type { ModelsResponse, PublicModel } from "../../../shared/generations/models";
import { progressReport } from "../../../shared/generations/progress";
import type { Board } from "../../../shared/history/boards";
import { formatGroupDate } from "../../../shared/history/date-groups";
import {
	GENERATION_ACTIONS,
	type GenerationAction,
	type GenerationParent,
	MAX_UPLOAD_BYTES,
	type UploadResponse,
} from "../../../shared/image-input/image-input";
import { mswServer } from "../msw-server";
import { createFakeBatch } from "./fake-batches";
import { createFakePromptTools, type FakePromptToolsOptions } from "./fake-prompt-tools-api";
import {
	createGate,
	createTestGeneration,
	createTestGenerationId,
	createTestImages,
	createTestModel,
} from "./test-generations";

// A stand-in for the generations API at the network edge, for the history's and the generator's
// tests alike: a store of generations answered the way the server answers, and scenario options
// for what a test is about (how a start is answered, what the polls say, which request waits).

/** One scripted answer of a poll: a poll body, an HTTP error, or no answer at all. */
export type PollStep =
	| {
			status: Exclude<GenerationStatus, "completed">;
			message?: string | null;
			/** What is happening, as a server that reports progress says it. */
			progress?: GenerationProgress | null;
			/** The answer's version, as this server's polls carry one (absent: a server without). */
			version?: string;
	  }
	| { status: "completed" }
	| { httpStatus: number }
	| { isNetworkError: true };

type StartAnswer =
	| { kind: "accepted"; pollingUrl?: string }
	| { kind: "refused"; code: ErrorCode; message?: string }
	| { kind: "raw"; status: number; body: Record<string, unknown> | null };

export type FakeGenerationsApiOptions = FakePromptToolsOptions & {
	/** The history, in any order; the fake answers newest first like the server. */
	generations?: Generation[];
	/** When set, every list request fails with this error until `setListFailure(undefined)`. */
	listFailure?: ErrorCode;
	/** The provider `/api/config` names; the offline engine when not given (msw-server.ts). */
	imageProvider?: string;
	/** How a start call answers; accepted, with the new generation's polling URL, by default. */
	start?: StartAnswer;
	/** Start calls wait for this before answering. */
	startGate?: Promise<void>;
	/**
	 * Poll answers in order, whichever generation is polled; the last one repeats. A completed step
	 * completes the generation polled (four images, `runTimeMs` after its start), a failed one fails
	 * it. Without them, a poll answers the stored generation's status, as the server does.
	 */
	polls?: PollStep[];
	/** Each poll waits for the gate of its number (0 is the first poll) before answering. */
	pollGates?: ReadonlyMap<number, Promise<void>>;
	/** How long a generation the polls complete took on the server; 3.25 s unless said. */
	runTimeMs?: number;
	/** Whether `GET /api/generations/:id` answers with the record; a 500 otherwise. */
	isRecordAvailable?: boolean;
	/** What `GET /api/models` offers; the offline engine alone (createTestModel) unless told. */
	models?: PublicModel[];
	/** The default of `GET /api/models`; the first model unless told. */
	defaultModelId?: string;
	/** The model of the person's latest generation that `GET /api/models` names; none unless told. */
	preferredModelId?: string;
	/** What `GET /api/boards` lists; none unless told. */
	boards?: Board[];
};

type Failure = "list" | "delete" | "bulkDelete" | "favorite" | "create" | "upload";

/** What a start is made from, once its `reference` and `action` are read. */
type ImageSource =
	| { kind: "none"; action: null; parent: null }
	| { kind: "upload"; action: "edit"; parent: GenerationParent }
	| {
			kind: "generation";
			action: GenerationAction;
			parentGeneration: Generation;
			parent: GenerationParent;
	  }
	| { kind: "invalid"; message: string }
	| { kind: "not-found" };

type RecordedRequest = { method: string; path: string; search: URLSearchParams; body?: unknown };

const STATUS_PATH = /^\/api\/generations\/[^/]+\/status$/;
const RECORD_PATH = /^\/api\/generations\/[0-9a-f-]{36}$/;

function sortNewestFirst(items: Generation[]): Generation[] {
	return [...items].sort(
		(left, right) =>
			right.created_at.localeCompare(left.created_at) || right.id.localeCompare(left.id),
	);
}

function isAspectRatio(value: unknown): value is AspectRatio {
	return ASPECT_RATIO_VALUES.some((ratio) => ratio === value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readField(body: unknown, name: string): unknown {
	return isRecord(body) ? body[name] : undefined;
}

function readIds(body: unknown): string[] | undefined {
	const ids = readField(body, "ids");
	return Array.isArray(ids) && ids.every((id) => typeof id === "string") ? ids : undefined;
}

/** The list filters of the API: the search (any case, anywhere in the prompt), ratio, favourites, owner. */
function matches(item: Generation, search: URLSearchParams): boolean {
	const text = (search.get("q") ?? "").trim().toLowerCase();
	if (!item.prompt.toLowerCase().includes(text)) return false;
	const ratio = search.get("ratio");
	if (ratio && item.aspect_ratio !== ratio) return false;
	if (search.get("favorites") === "true" && !item.is_favorite) return false;
	const owner = search.get("owner");
	if (owner && item.owner_email?.toLowerCase() !== owner.toLowerCase()) return false;
	const model = search.get("model");
	if (model && item.model.id !== model) return false;
	const style = search.get("style");
	if (style && item.style?.id !== style) return false;
	const batch = search.get("batch");
	if (batch && item.batchId !== batch) return false;
	return true;
}

/** A field of a start's body when it is of the expected kind, else undefined. */
function readOptional<Value>(
	body: unknown,
	name: string,
	isKind: (value: unknown) => value is Value,
): Value | undefined {
	const value = readField(body, name);
	return isKind(value) ? value : undefined;
}

const isString = (value: unknown): value is string => typeof value === "string";
const isWholeNumber = (value: unknown): value is number => Number.isInteger(value);
const isQuality = (value: unknown): value is Quality =>
	QUALITIES.some((quality) => quality === value);

/** The image type a file's first bytes say, or null: PNG, JPEG and WebP only, as the server checks. */
function sniffImageType(bytes: Uint8Array): UploadResponse["contentType"] | null {
	const starts = (signature: number[], offset = 0) =>
		signature.every((byte, index) => bytes[offset + index] === byte);
	if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
	if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
	if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
	return null;
}

function answerError(code: ErrorCode, message?: string, status: number = ERRORS[code].status) {
	return HttpResponse.json({ success: false, error: errorBody(code, message) }, { status });
}

/**
 * A poll's answer, with the progress where the stored generation carries one, and without a
 * version: the browser reads such an answer as from any server of SPEC.md's shape.
 */
type PollAnswerBody = Omit<PollResponse, "progress" | "version"> & {
	progress?: GenerationProgress | null;
	version?: string;
};

function answerPoll(generation: Generation) {
	return HttpResponse.json({
		status: generation.status,
		results: generation.images.map((image) => image.url),
		message: generation.status === "failed" ? (generation.error ?? "Generation failed") : null,
		progress: generation.progress,
		model: generation.model,
		settings: generation.settings,
	} satisfies PollAnswerBody);
}

/** `GET /api/generations/active` of the stored generations: the unfinished ones, oldest first. */
function answerActive(generations: readonly Generation[]) {
	const items = generations
		.filter((item) => isInProgress(item.status))
		.reverse()
		.map((item) => ({ id: item.id, status: item.status, progress: item.progress ?? null }));
	return { count: items.length, items, version: JSON.stringify(items) } satisfies ActiveGenerations;
}

/**
 * Answers the generations API at the network edge the way the server does: cursor pages newest
 * first of what matches the search and filters, with the total and today's count of those; one
 * item, its poll, delete and bulk delete, the favourite star, and a new generation (a start or a
 * Rerun). The first generation started gets `generationId`. Each test creates its own and changes
 * it through the options and the returned controls.
 */
export function startFakeGenerationsApi(options: FakeGenerationsApiOptions = {}) {
	const generationId = createTestGenerationId();
	const runTimeMs = options.runTimeMs ?? 3_250;
	const models = options.models ?? [createTestModel()];
	let seedsDrawn = 0;
	const state = {
		generations: sortNewestFirst(options.generations ?? []),
		failures: new Map<Failure, ErrorCode>(
			options.listFailure ? [["list", options.listFailure]] : [],
		),
		listGate: undefined as Promise<void> | undefined,
		deleteGate: undefined as Promise<void> | undefined,
		favoriteGate: undefined as Promise<void> | undefined,
		requests: [] as RecordedRequest[],
		isFirstIdTaken: false,
		pollCount: 0,
		uploads: new Set<string>(),
		uploadCount: 0,
	};

	const record = (request: Request, body?: unknown) => {
		const url = new URL(request.url);
		state.requests.push({
			method: request.method,
			path: url.pathname,
			search: url.searchParams,
			body,
		});
	};
	const find = (id: string) => state.generations.find((item) => item.id === id);
	const promptTools = createFakePromptTools(options);
	const store = (generation: Generation) => {
		state.generations = sortNewestFirst([
			...state.generations.filter((item) => item.id !== generation.id),
			generation,
		]);
	};
	const hold = (gateName: "listGate" | "deleteGate" | "favoriteGate") => {
		const gate = createGate();
		state[gateName] = gate.opened;
		return () => {
			state[gateName] = undefined;
			gate.release();
		};
	};
	const takeId = () => {
		if (state.isFirstIdTaken) return createTestGenerationId();
		state.isFirstIdTaken = true;
		return generationId;
	};

	/** Makes every request of one kind fail with `code`, or answer again with undefined. */
	const setFailure = (kind: Failure, code: ErrorCode | undefined) => {
		if (code) state.failures.set(kind, code);
		else state.failures.delete(kind);
	};

	/**
	 * What a start names as its image, checked as the server checks it: an upload of this test's
	 * (POST /api/uploads), or an image of a stored generation; none without a reference. A
	 * `reference` without an action is an edit; Vary and Upscale need an image of a generation.
	 */
	const readImageSource = (body: unknown): ImageSource => {
		const reference = readField(body, "reference");
		const actionField = readField(body, "action");
		const action = GENERATION_ACTIONS.find((candidate) => candidate === actionField) ?? null;
		if (actionField !== undefined && action === null) {
			return {
				kind: "invalid",
				message: "action must be vary-subtle, vary-strong, upscale or edit",
			};
		}
		if (reference === undefined) {
			return action === null
				? { kind: "none", action: null, parent: null }
				: { kind: "invalid", message: "reference is required" };
		}
		const uploadId = readField(reference, "uploadId");
		if (typeof uploadId === "string") {
			if (action !== null && action !== "edit") {
				return { kind: "invalid", message: "reference must be an image of a generation" };
			}
			if (!state.uploads.has(uploadId)) return { kind: "not-found" };
			return { kind: "upload", action: "edit", parent: { action: "edit", upload: true, uploadId } };
		}
		const generationId = readField(reference, "generationId");
		const imageIndex = readField(reference, "imageIndex");
		if (typeof generationId !== "string" || !isWholeNumber(imageIndex)) {
			return { kind: "invalid", message: "reference must name an upload or a generation's image" };
		}
		const parentGeneration = find(generationId);
		if (!parentGeneration || imageIndex >= parentGeneration.images.length) {
			return { kind: "not-found" };
		}
		const taken = action ?? "edit";
		return {
			kind: "generation",
			action: taken,
			parentGeneration,
			parent: { generationId, imageIndex, action: taken, exists: true },
		};
	};

	/** A generation as the server answers it: how many were made from it, counted now. */
	const present = (generation: Generation): Generation => ({
		...generation,
		childrenCount: state.generations.filter(
			(item) =>
				item.parent && "generationId" in item.parent && item.parent.generationId === generation.id,
		).length,
	});

	/** After a deletion: the children of what was deleted keep their parent's id, `exists: false`. */
	const markParentsDeleted = (ids: readonly string[]) => {
		state.generations = state.generations.map((item) =>
			item.parent && "generationId" in item.parent && ids.includes(item.parent.generationId)
				? { ...item, parent: { ...item.parent, exists: false } }
				: item,
		);
	};

	/** The scripted answer of a poll, and what it does to the stored generation. */
	const answerScriptedPoll = (step: PollStep, generation: Generation | undefined) => {
		if ("isNetworkError" in step) return HttpResponse.error();
		if ("httpStatus" in step) {
			return answerError("SERVICE_UNAVAILABLE", undefined, step.httpStatus);
		}
		if (!generation) return answerError("NOT_FOUND");
		if (step.status === "completed") {
			const completed: Generation = {
				...generation,
				status: "completed",
				images: createTestImages(generation.id, generation.aspect_ratio, generation.settings.count),
				completed_at: new Date(Date.parse(generation.created_at) + runTimeMs).toISOString(),
				progress: null,
			};
			store(completed);
			return answerPoll(completed);
		}
		const message = "message" in step ? (step.message ?? null) : null;
		if (step.status === "failed") {
			store({ ...generation, status: "failed", error: message, progress: null });
		} else
			store({
				...generation,
				status: step.status,
				progress: step.progress ?? progressReport(step.status === "queued" ? "queued" : "starting"),
			});
		return HttpResponse.json({
			status: step.status,
			results: [],
			message,
			model: generation.model,
			settings: generation.settings,
			// Only what the scenario reports: a poll without progress is read as SPEC.md's schedule.
			...(step.status === "failed" || step.progress === undefined
				? {}
				: { progress: step.progress }),
			...("version" in step && step.version !== undefined ? { version: step.version } : {}),
		} satisfies PollAnswerBody);
	};

	const handlers = [
		http.get("*/api/generations", async ({ request }) => {
			record(request);
			if (state.listGate) await state.listGate;
			const failure = state.failures.get("list");
			if (failure) return answerError(failure);
			const url = new URL(request.url);
			const limit = Number(url.searchParams.get("limit") ?? 24);
			const timeZone = url.searchParams.get("timeZone") ?? "UTC";
			const cursor = url.searchParams.get("cursor");
			const ratio = url.searchParams.get("ratio");
			if (ratio !== null && !isAspectRatio(ratio)) return answerError("VALIDATION_ERROR");
			const matching = state.generations.filter((item) => matches(item, url.searchParams));
			// The real cursor is the last item's (created_at, id); an index stands in for it here.
			const start = cursor ? Number(cursor.replace("after-", "")) : 0;
			const items = matching.slice(start, start + limit).map(present);
			const end = start + items.length;
			const todayLabel = formatGroupDate(new Date(), { timeZone });
			const page: GenerationPage = {
				items,
				nextCursor: end < matching.length ? `after-${end}` : null,
				total: matching.length,
				today: matching.filter(
					(item) => formatGroupDate(item.created_at, { timeZone }) === todayLabel,
				).length,
			};
			return HttpResponse.json(page);
		}),
		http.post("*/api/generations", async ({ request }) => {
			const body: unknown = await request.json().catch(() => null);
			record(request, body);
			await options.startGate;
			const failure = state.failures.get("create");
			if (failure) return answerError(failure);
			const answer = options.start ?? { kind: "accepted" };
			if (answer.kind === "raw") return HttpResponse.json(answer.body, { status: answer.status });
			if (answer.kind === "refused") return answerError(answer.code, answer.message);
			const batch = createFakeBatch(body, models, takeId);
			if (batch) {
				for (const generation of batch.generations) store(generation);
				return HttpResponse.json(batch.answer, { status: 201 });
			}
			const source = readImageSource(body);
			if (source.kind === "invalid") return answerError("VALIDATION_ERROR", source.message);
			if (source.kind === "not-found") return answerError("NOT_FOUND");
			// Vary and Upscale take the prompt and ratio from the parent, Vary its model too.
			const parentGeneration = source.kind === "generation" ? source.parentGeneration : undefined;
			const isFromParent = source.action !== null && source.action !== "edit";
			const prompt = isFromParent ? parentGeneration?.prompt : readField(body, "prompt");
			const aspectRatio = isFromParent
				? parentGeneration?.aspect_ratio
				: readField(body, "aspectRatio");
			if (typeof prompt !== "string" || !isAspectRatio(aspectRatio)) {
				return answerError("VALIDATION_ERROR");
			}
			// The model and settings asked for (the default model's, else), with a seed drawn when none
			// was: like the server, without its checks of what the model offers.
			const modelId =
				readOptional(body, "model", isString) ??
				(isFromParent ? parentGeneration?.model.id : undefined);
			const model =
				models.find(({ id }) => id === (modelId ?? options.defaultModelId)) ??
				models[0] ??
				createTestModel();
			if (source.action !== null && !model.imageInput && source.action !== "upscale") {
				return answerError("VALIDATION_ERROR", "reference: this model does not take an image");
			}
			if (readField(body, "strength") !== undefined && !model.referenceStrength) {
				return answerError(
					"VALIDATION_ERROR",
					"strength is not taken by this model: it decides by itself how far to move from the reference",
				);
			}
			seedsDrawn += 1;
			const created = createTestGeneration({
				id: takeId(),
				prompt,
				aspect_ratio: aspectRatio,
				status: "queued",
				images: [],
				completed_at: null,
				model: { id: model.id, label: model.label },
				parent: source.parent,
				childrenCount: 0,
				style: (() => {
					const style = promptTools
						.readStyles()
						.find(({ id }) => id === readOptional(body, "style", isString));
					return style ? { id: style.id, name: style.name } : null;
				})(),
				settings: {
					count:
						source.action === "upscale"
							? 1
							: (readOptional(body, "count", isWholeNumber) ?? Math.max(...model.counts)),
					seed: model.seed
						? (readOptional(body, "seed", isWholeNumber) ?? 900_000 + seedsDrawn)
						: null,
					negativePrompt: readOptional(body, "negativePrompt", isString) ?? null,
					quality: readOptional(body, "quality", isQuality) ?? null,
				},
			});
			store(created);
			// Like the server, the answer names the model and the settings, the seed drawn among them.
			return HttpResponse.json(
				{
					success: true,
					id: created.id,
					pollingUrl: answer.pollingUrl ?? created.polling_url,
					model: created.model,
					settings: created.settings,
				},
				{ status: 201 },
			);
		}),
		http.get("*/api/boards", ({ request }) => {
			record(request);
			return HttpResponse.json({ items: options.boards ?? [] });
		}),
		http.post("*/api/boards/:id/generations", async ({ request, params }) => {
			const body: unknown = await request.json().catch(() => null);
			record(request, body);
			if (!(options.boards ?? []).some((board) => board.id === params.id)) {
				return answerError("NOT_FOUND");
			}
			return HttpResponse.json({ success: true, changed: readIds(body)?.length ?? 0 });
		}),
		http.get("*/api/models", ({ request }) => {
			record(request);
			return HttpResponse.json({
				models,
				defaultModelId: options.defaultModelId ?? models[0]?.id ?? "local",
				preferredModelId: options.preferredModelId ?? null,
			} satisfies ModelsResponse);
		}),
		http.post("*/api/generations/bulk-delete", async ({ request }) => {
			const body: unknown = await request.json().catch(() => null);
			record(request, body);
			if (state.deleteGate) await state.deleteGate;
			const failure = state.failures.get("bulkDelete");
			if (failure) return answerError(failure);
			const ids = readIds(body);
			if (!ids || ids.length === 0 || ids.length > 200) return answerError("VALIDATION_ERROR");
			if (!ids.every((id) => find(id))) return answerError("NOT_FOUND");
			state.generations = state.generations.filter((item) => !ids.includes(item.id));
			markParentsDeleted(ids);
			return HttpResponse.json({ success: true, deleted: ids.length });
		}),
		http.put("*/api/generations/:id/favorite", async ({ request, params }) => {
			const body: unknown = await request.json().catch(() => null);
			record(request, body);
			if (state.favoriteGate) await state.favoriteGate;
			const failure = state.failures.get("favorite");
			if (failure) return answerError(failure);
			const generation = find(String(params.id));
			if (!generation) return answerError("NOT_FOUND");
			const favorite = readField(body, "favorite");
			if (typeof favorite !== "boolean") return answerError("VALIDATION_ERROR");
			store({ ...generation, is_favorite: favorite });
			return HttpResponse.json({ success: true, favorite });
		}),
		// Before /api/generations/:id, which would take "active" for an id. Like the server's long
		// poll, an unchanged answer waits a little (the server waits up to `wait`).
		http.get("*/api/generations/active", async ({ request }) => {
			record(request);
			const after = new URL(request.url).searchParams.get("after");
			const active = answerActive(state.generations);
			if (after === active.version) await delay(20);
			return HttpResponse.json(answerActive(state.generations));
		}),
		http.get("*/api/generations/:id/status", async ({ request, params }) => {
			record(request);
			const number = state.pollCount;
			state.pollCount += 1;
			await options.pollGates?.get(number);
			const generation = find(String(params.id));
			if (options.polls) {
				const step = options.polls[Math.min(number, options.polls.length - 1)];
				return answerScriptedPoll(step ?? { status: "completed" }, generation);
			}
			if (!generation) return answerError("NOT_FOUND");
			// Like the server's long poll, but short, so tests need not wait 1.5 s per poll.
			if (generation.status === "queued" || generation.status === "running") await delay(20);
			return answerPoll(generation);
		}),
		http.get("*/api/generations/:id", ({ request, params }) => {
			record(request);
			if (options.isRecordAvailable === false) return answerError("UNKNOWN_ERROR");
			const generation = find(String(params.id));
			return generation ? HttpResponse.json(present(generation)) : answerError("NOT_FOUND");
		}),
		// The family of a generation: the parent while it exists, and the children, newest first;
		// with `imageIndex`, only those made from that image.
		http.get("*/api/generations/:id/family", ({ request, params }) => {
			record(request);
			const generation = find(String(params.id));
			if (!generation) return answerError("NOT_FOUND");
			const index = new URL(request.url).searchParams.get("imageIndex");
			if (
				index !== null &&
				!(/^\d{1,2}$/.test(index) && Number(index) < generation.images.length)
			) {
				return answerError("VALIDATION_ERROR", "imageIndex must be an image of this generation");
			}
			const parentId =
				generation.parent && "generationId" in generation.parent
					? generation.parent.generationId
					: undefined;
			const parent = parentId ? find(parentId) : undefined;
			const children = state.generations.filter(
				(item) =>
					item.parent &&
					"generationId" in item.parent &&
					item.parent.generationId === generation.id &&
					(index === null || item.parent.imageIndex === Number(index)),
			);
			return HttpResponse.json({
				parent: parent ? present(parent) : null,
				children: children.map(present),
			} satisfies GenerationFamily);
		}),
		// An upload, checked by content like the server: PNG, JPEG or WebP, at most 20 MB.
		http.post("*/api/uploads", async ({ request }) => {
			const form = await request.formData().catch(() => null);
			const file = form?.get("image");
			record(request, file);
			const failure = state.failures.get("upload");
			if (failure) return answerError(failure);
			// Node's File, which is not the test window's Blob: a part that is not text is a file.
			if (file === null || file === undefined || typeof file === "string") {
				return answerError("VALIDATION_ERROR", "image is required");
			}
			if (file.size > MAX_UPLOAD_BYTES) return answerError("PAYLOAD_TOO_LARGE");
			const contentType = sniffImageType(new Uint8Array(await file.arrayBuffer()));
			if (!contentType) {
				return answerError("VALIDATION_ERROR", "image must be a PNG, JPEG or WebP file");
			}
			state.uploadCount += 1;
			const uploadId = `upload-${state.uploadCount}`;
			state.uploads.add(uploadId);
			return HttpResponse.json(
				{ uploadId, width: 512, height: 512, contentType } satisfies UploadResponse,
				{ status: 201 },
			);
		}),
		http.delete("*/api/generations/:id", async ({ request, params }) => {
			record(request);
			if (state.deleteGate) await state.deleteGate;
			const failure = state.failures.get("delete");
			if (failure) return answerError(failure);
			const generation = find(String(params.id));
			if (!generation) return answerError("NOT_FOUND");
			state.generations = state.generations.filter((item) => item.id !== generation.id);
			markParentsDeleted([generation.id]);
			return HttpResponse.json({ success: true });
		}),
	];
	const { imageProvider } = options;
	if (imageProvider !== undefined) {
		handlers.push(
			http.get("*/api/config", () => HttpResponse.json({ googleEnabled: false, imageProvider })),
		);
	}
	mswServer.use(...handlers, ...promptTools.handlers);

	/** Requests made so far, optionally only one method and path. */
	const readRequests = (method?: string, path?: string | RegExp) =>
		state.requests.filter(
			(request) =>
				(method === undefined || request.method === method) &&
				(path === undefined ||
					(typeof path === "string" ? request.path === path : path.test(request.path))),
		);

	return {
		/** The id the first generation started gets. */
		generationId,
		pollingUrl: `/api/generations/${generationId}/status`,
		readRequests,
		/** The files uploaded, in order. */
		readUploads: () => readRequests("POST", "/api/uploads").map((request) => request.body),
		/** The bodies of the start calls, in order. */
		readCreateRequests: () =>
			readRequests("POST", "/api/generations").map((request) => request.body),
		readPollCount: () => readRequests("GET", STATUS_PATH).length,
		readRecordRequests: () => readRequests("GET", RECORD_PATH).length,
		/** The search parameters of each list request. */
		readListRequests: () =>
			readRequests("GET", "/api/generations").map((request) => request.search),
		readGenerations: () => state.generations,
		/** The styles as the person has them now. */
		readStyles: promptTools.readStyles,
		setFailure,
		setListFailure: (code: ErrorCode | undefined) => setFailure("list", code),
		setDeleteFailure: (code: ErrorCode | undefined) => setFailure("delete", code),
		/** Holds list requests until the returned function is called. */
		holdList: () => hold("listGate"),
		/** Holds delete and bulk delete requests until the returned function is called. */
		holdDelete: () => hold("deleteGate"),
		/** Holds favourite changes until the returned function is called. */
		holdFavorite: () => hold("favoriteGate"),
		/** Adds a generation, as if someone made one elsewhere. */
		addGeneration: store,
		/** Removes a stored generation, as a deletion in another tab or through the API would. */
		removeGeneration: (id: string) => {
			state.generations = state.generations.filter((item) => item.id !== id);
		},
		/** Replaces a stored generation, as the server's worker would when it finishes. */
		updateGeneration: (generation: Generation) => {
			state.generations = state.generations.map((item) =>
				item.id === generation.id ? generation : item,
			);
		},
	};
}
