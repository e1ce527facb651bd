import { randomInt, randomUUID } from "node:crypto";
import { sql, type Transaction } from "kysely";
import { errorMessage } from "../../../shared/core/errors";
import type { CreateGenerationRequest } from "../../../shared/generations/create-generation-request";
import type { CreateBatchResponse } from "../../../shared/generations/generation-responses";
import { MAX_SEED } from "../../../shared/generations/generation-settings";
import type { Language } from "../../../shared/i18n/languages";
import {
	generatorPromptRequired,
	serverBatchNotFromImage,
	serverBatchTooLarge,
	serverModelsNotBoth,
	serverModelsNotOffered,
	serverVariationsTooMany,
} from "../../../shared/i18n/messages";
import {
	expandAllVariations,
	parseVariations,
	pickRandomVariations,
	VARIATION_MESSAGES,
} from "../../../shared/prompts/prompt-variations";
import type { DatabaseSchema } from "../../db/schema";
import { AppError, type LocalizedMessage } from "../../errors/app-error";
import type { Model } from "../../models/model-catalogue";
import type { Viewer } from "../../person/viewer";
import { rememberPrompt } from "../../prompts/recent-prompts-repository";
import { DEFAULT_MAX_BATCH_GENERATIONS, type GenerationDeps } from "../generation-deps";
import { settingsOf } from "../generation-input";
import type { BatchSlot } from "./batch-slot";
import {
	type CreatedGeneration,
	createGeneration,
	findKeyedGeneration,
	hashRequest,
	rememberKey,
} from "./create-generation";
import { pollingUrlFor } from "./generation-presenter";

export type CreatedBatch = Omit<CreateBatchResponse, "success"> & { isReplay: boolean };

function refuse(message: LocalizedMessage): never {
	throw new AppError("VALIDATION_ERROR", message);
}

/**
 * A compared model's refusal, prefixed with the field and the model (`models: <id>: ...`), its own
 * message in the request's language.
 */
function namedRefusal(
	model: string | undefined,
	error: AppError,
	options: { language: Language },
): string {
	const own = error.ownMessage;
	const text =
		typeof own === "function" ? own(options) : (own ?? errorMessage(error.code, options));
	return `models: ${model}: ${text}`;
}

/** The prompts a request's `variations` expand to (its prompt alone without them). */
function expandPrompts(
	prompt: string,
	variations: CreateGenerationRequest["variations"],
	seed: number,
): string[] {
	if (variations === undefined) return [prompt];
	const parsed = parseVariations(prompt);
	if (!parsed.ok) refuse(parsed.message);
	if (parsed.groups === 0) refuse(VARIATION_MESSAGES.noGroup);
	if (variations === "all") return expandAllVariations(parsed.parts, parsed.combinations);
	if (variations.random > parsed.combinations) {
		const combinations = String(parsed.combinations);
		refuse((options) => serverVariationsTooMany({ combinations }, options));
	}
	return pickRandomVariations(parsed.parts, parsed.combinations, variations.random, seed);
}

/** Whether the seed picks the request's variations (its images aside). */
function hasRandomPicks(request: CreateGenerationRequest): boolean {
	return typeof request.variations === "object";
}

/** The models of a request: those compared, or the one it names (or the default). */
function chooseModels(deps: GenerationDeps, request: CreateGenerationRequest): Model[] {
	if (request.models === undefined) {
		const model =
			request.model === undefined ? deps.models.defaultModel() : deps.models.find(request.model);
		// An unknown model is resolve-settings.ts's to refuse, naming `model`.
		return model ? [model] : [];
	}
	if (request.model !== undefined) refuse(serverModelsNotBoth);
	return request.models.map(
		(id) =>
			deps.models.find(id) ?? refuse((options) => serverModelsNotOffered({ model: id }, options)),
	);
}

/**
 * One generation's request: its prompt and model. Compared models share the prompt, ratio and
 * seed, each taking the seed, negative prompt and quality only where it offers them; every other
 * setting is checked against each model as for one generation.
 */
function memberRequest(
	request: CreateGenerationRequest,
	prompt: string,
	model: Model | undefined,
	seed: number | null,
): CreateGenerationRequest {
	const { variations: _variations, models: _models, ...single } = request;
	if (model === undefined) return { ...single, prompt, seed };
	const isCompared = request.models !== undefined;
	return {
		...single,
		prompt,
		model: model.id,
		seed: model.seed ? seed : null,
		negativePrompt: !isCompared || model.negativePrompt ? request.negativePrompt : null,
		quality:
			!isCompared || (request.quality !== null && model.qualities.includes(request.quality))
				? request.quality
				: null,
	};
}

/**
 * Starts a batch: the generations one submission makes, its prompt's variations (`variations`),
 * or one prompt on several models (`models`), or both. Each generation is made as one alone is
 * (create-generation.ts: its model's settings, the blocklist, the style), and all of them are
 * inserted in one transaction under the person's lock, counted against the quotas as a whole:
 * the batch starts entirely, or nothing of it does (decision 038).
 *
 * Random picks follow the seed, and every generation whose model takes a seed is made with it:
 * the request's, or one drawn here and answered, so the batch can be made again.
 */
export async function createBatch(
	deps: GenerationDeps,
	viewer: Viewer,
	request: CreateGenerationRequest,
	options: { idempotencyKey?: string } = {},
): Promise<CreatedBatch> {
	const field = request.variations === undefined ? "models" : "variations";
	if (request.reference !== undefined || request.action !== undefined) {
		refuse((options) => serverBatchNotFromImage({ field }, options));
	}
	if (request.prompt === undefined) refuse(generatorPromptRequired);
	const models = chooseModels(deps, request);
	// No seed asked: one is drawn for the batch, so its picks (and its images) can be made again.
	const seed = request.seed ?? randomInt(0, MAX_SEED + 1);
	const prompts = expandPrompts(request.prompt, request.variations, seed);
	const max = deps.limits.maxBatchGenerations ?? DEFAULT_MAX_BATCH_GENERATIONS;
	const size = prompts.length * Math.max(models.length, 1);
	if (size > max) {
		const figures = { field, size: String(size), max: String(max) };
		refuse((options) => serverBatchTooLarge(figures, options));
	}
	const requests = prompts.flatMap((prompt) =>
		(models.length === 0 ? [undefined] : models).map((model) =>
			memberRequest(request, prompt, model, model === undefined || model.seed ? seed : null),
		),
	);

	const batchId = randomUUID();
	const { idempotencyKey } = options;
	const typedPrompt = request.prompt;
	const batch = coordinateBatch(deps, batchId, requests.length, async (transaction, inserts) => {
		await sql`select pg_advisory_xact_lock(hashtext(${`generations:${viewer.id}`}))`.execute(
			transaction,
		);
		const requestHash = hashRequest(request);
		if (idempotencyKey !== undefined) {
			const keyed = await findKeyedGeneration(transaction, viewer.id, idempotencyKey, requestHash);
			if (keyed) return { replayOf: keyed };
		}
		// Each insert takes the person's lock again (it is held already) and checks the quotas
		// counting the batch's generations still to come.
		for (const insert of inserts) await insert(transaction);
		// The prompt as typed, its choices kept, joins recall: not each of its expansions.
		await rememberPrompt(transaction, viewer.id, typedPrompt, new Date());
		if (idempotencyKey !== undefined) {
			const first = await transaction
				.selectFrom("generations")
				.select("id")
				.where("batch_id", "=", batchId)
				.orderBy("created_at")
				.orderBy("id")
				.executeTakeFirstOrThrow();
			await rememberKey(transaction, {
				user_id: viewer.id,
				key: idempotencyKey,
				request_hash: requestHash,
				generation_id: first.id,
			});
		}
		return { replayOf: undefined };
	});
	const members = requests.map((member, index) =>
		createGeneration(deps, viewer, member, { batch: batch.slot(index) }).catch((error) => {
			// A compared model's own refusal says which model it is.
			const named =
				request.models !== undefined &&
				error instanceof AppError &&
				error.code === "VALIDATION_ERROR"
					? new AppError(error.code, (options) => namedRefusal(member.model, error, options))
					: error;
			batch.abandon(named);
			throw named;
		}),
	);
	// Every member's outcome is looked at below, or dropped with the batch's own failure.
	const settled = Promise.allSettled(members);
	let outcome: { replayOf: CreatedGeneration | undefined };
	try {
		outcome = await batch.done;
	} catch (error) {
		await settled;
		throw error;
	}
	if (outcome.replayOf) {
		const replayed = await readBatch(
			deps,
			outcome.replayOf.id,
			hasRandomPicks(request) ? (request.seed ?? null) : null,
		);
		return { ...replayed, isReplay: true };
	}
	const created = await Promise.all(members);
	const isSeedFollowed =
		hasRandomPicks(request) || created.some((generation) => generation.settings.seed !== null);
	return {
		batchId,
		seed: isSeedFollowed ? seed : null,
		generations: created.map((generation, index) => ({
			id: generation.id,
			pollingUrl: generation.pollingUrl,
			prompt: requests[index]?.prompt ?? typedPrompt,
			model: generation.model,
			settings: generation.settings,
		})),
		isReplay: false,
	};
}

/**
 * The batch an Idempotency-Key's first generation started, answered again. Its seed is the one its
 * generations kept (any of them: the first may be on a model that takes none), else the one that
 * picked its variations if the request asked for it, else null: nothing in the batch follows a
 * seed, or one drawn only for picks was kept nowhere.
 */
async function readBatch(
	deps: GenerationDeps,
	generationId: string,
	askedSeed: number | null,
): Promise<Omit<CreatedBatch, "isReplay">> {
	const db = deps.database.db;
	const first = await db
		.selectFrom("generations")
		.select("batch_id")
		.where("id", "=", generationId)
		.executeTakeFirstOrThrow();
	const rows =
		first.batch_id === null
			? []
			: await db
					.selectFrom("generations")
					.selectAll()
					.where("batch_id", "=", first.batch_id)
					.orderBy("created_at")
					.orderBy("id")
					.execute();
	const kept = rows.find((row) => row.seed !== null)?.seed;
	return {
		batchId: first.batch_id ?? generationId,
		seed: kept === undefined || kept === null ? askedSeed : Number(kept),
		generations: rows.map((row) => ({
			id: row.id,
			pollingUrl: pollingUrlFor(row.id),
			prompt: row.prompt,
			model: { id: row.model_id, label: row.model_label },
			settings: settingsOf(row),
		})),
	};
}

type Insert = (transaction: Transaction<DatabaseSchema>) => Promise<void>;

/** A member's answer when its batch was an Idempotency-Key's replay: the batch answers instead. */
const REPLAYED = new Error("the batch was answered from its Idempotency-Key");

/**
 * Gathers a batch's inserts as its generations enlist (each once its own checks have passed)
 * and runs them, in the batch's order, in one transaction once all have; a generation refused
 * before enlisting abandons the batch, and nothing of it is inserted.
 */
function coordinateBatch<Outcome>(
	deps: GenerationDeps,
	batchId: string,
	size: number,
	run: (transaction: Transaction<DatabaseSchema>, inserts: Insert[]) => Promise<Outcome>,
) {
	type Entry = { insert: Insert; finish(): void; fail(error: unknown): void };
	const entries: (Entry | undefined)[] = Array.from({ length: size }, () => undefined);
	let enlisted = 0;
	let failure: { error: unknown } | undefined;
	let settle: { resolve(outcome: Outcome): void; reject(error: unknown): void } | undefined;
	const done = new Promise<Outcome>((resolve, reject) => {
		settle = { resolve, reject };
	});
	const abandon = (error: unknown) => {
		if (failure) return;
		failure = { error };
		for (const entry of entries) entry?.fail(error);
		settle?.reject(error);
	};
	const start = async () => {
		const inserts = entries.flatMap((entry) => (entry ? [entry.insert] : []));
		try {
			const outcome = await deps.database.db
				.transaction()
				.execute((transaction) => run(transaction, inserts));
			settle?.resolve(outcome);
			for (const entry of entries) entry?.finish();
			// The jobs are visible now that the transaction has committed: start them without waiting.
			deps.queue.wake();
		} catch (error) {
			abandon(error);
		}
	};
	function slot(index: number): BatchSlot {
		return {
			id: batchId,
			rest: size - 1 - index,
			size,
			enlist<Result>(insert: (transaction: Transaction<DatabaseSchema>) => Promise<Result>) {
				return new Promise<Result>((resolve, reject) => {
					if (failure) {
						reject(failure.error);
						return;
					}
					let finish: (() => void) | undefined;
					entries[index] = {
						insert: async (transaction) => {
							const result = await insert(transaction);
							finish = () => resolve(result);
						},
						finish: () => (finish ? finish() : reject(REPLAYED)),
						fail: reject,
					};
					enlisted += 1;
					if (enlisted === size) void start();
				});
			},
		};
	}
	return { slot, done, abandon };
}
