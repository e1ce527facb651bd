import { createHash, randomUUID } from "node:crypto";
import { type Kysely, sql, type Transaction } from "kysely";
import type { CreateGenerationRequest } from "../../../shared/generations/create-generation-request";
import type {
	GenerationModel,
	GenerationSettings,
} from "../../../shared/generations/generation-responses";
import { GenerationIdSchema } from "../../../shared/generations/generations";
import {
	serverNoBoard,
	serverOriginalPromptOnlyWithPrompt,
	serverPromptBlocked,
	serverQuotaActive,
	serverQuotaDaily,
} from "../../../shared/i18n/messages";
import { addGenerationToBoards, selectOwnPlainBoardIds } from "../../boards/boards-repository";
import type { DatabaseSchema } from "../../db/schema";
import { AppError } from "../../errors/app-error";
import { readPersonLimits } from "../../person/person-controls";
import type { Viewer } from "../../person/viewer";
import { keepSourceStyle, styleGeneration } from "../../prompts/prompt-styles";
import { rememberPrompt } from "../../prompts/recent-prompts-repository";
import { markUploadUsed } from "../../uploads/upload-repository";
import type { GenerationDeps } from "../generation-deps";
import { notifyGenerationsChanged, personChangeKey, QUEUE_MOVED_KEY } from "../generation-events";
import { settingsOf } from "../generation-input";
import {
	countActiveGenerations,
	countGenerationsSince,
	insertGeneration,
} from "../generation-repository";
import { findReferenceSource, storeReferenceCopy } from "../run/reference-image";
import { storeMaskCopy } from "../run/region-image";
import { type BatchSlot, batchDailyMessage, batchQuotaMessage } from "./batch-slot";
import { pollingUrlFor } from "./generation-presenter";
import { findRegionMask } from "./resolve-region-edit";
import { resolveSettings } from "./resolve-settings";

function startOfUtcDay(now: Date): Date {
	return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export type CreatedGeneration = {
	id: string;
	pollingUrl: string;
	model: GenerationModel;
	settings: GenerationSettings;
	/** An Idempotency-Key's earlier generation, answered again instead of a new one. */
	isReplay: boolean;
};

/** How long an Idempotency-Key of POST /api/generations keeps answering with its generation. */
const IDEMPOTENCY_KEY_HOURS = 24;

/** A request's fingerprint: the parsed request, whose keys always come in the schema's order. */
export function hashRequest(request: CreateGenerationRequest): string {
	return createHash("sha256").update(JSON.stringify(request)).digest("base64url");
}

/**
 * The generation an Idempotency-Key already made for this person in the last 24 hours, if any.
 * The same key with another request is refused with 422, as the IETF's Idempotency-Key draft
 * (draft-ietf-httpapi-idempotency-key-header, section 2.7) says: the key is being misused, which
 * no retry of the same request can fix. (Its 409 is for a request whose twin is still being
 * processed; here the person's lock makes the twin wait and answers it with the same generation.)
 */
export async function findKeyedGeneration(
	transaction: Transaction<DatabaseSchema>,
	userId: string,
	key: string,
	requestHash: string,
): Promise<CreatedGeneration | undefined> {
	const keyed = await transaction
		.selectFrom("generation_idempotency_keys")
		.innerJoin("generations", "generations.id", "generation_idempotency_keys.generation_id")
		.selectAll("generations")
		.select("generation_idempotency_keys.request_hash")
		.where("generation_idempotency_keys.user_id", "=", userId)
		.where("generation_idempotency_keys.key", "=", key)
		.where(
			"generation_idempotency_keys.created_at",
			">",
			sql<Date>`now() - ${`${IDEMPOTENCY_KEY_HOURS} hours`}::interval`,
		)
		.executeTakeFirst();
	if (!keyed) return undefined;
	if (keyed.request_hash !== requestHash) throw new AppError("IDEMPOTENCY_KEY_REUSED");
	return {
		id: keyed.id,
		pollingUrl: pollingUrlFor(keyed.id),
		model: { id: keyed.model_id, label: keyed.model_label },
		settings: settingsOf(keyed),
		isReplay: true,
	};
}

/** Remembers the key's generation; a key older than 24 hours (or whose generation is gone) is replaced. */
export async function rememberKey(
	transaction: Kysely<DatabaseSchema>,
	row: { user_id: string; key: string; request_hash: string; generation_id: string },
): Promise<void> {
	await transaction
		.insertInto("generation_idempotency_keys")
		.values({ ...row, created_at: new Date() })
		.onConflict((conflict) =>
			conflict.columns(["user_id", "key"]).doUpdateSet({
				request_hash: row.request_hash,
				generation_id: row.generation_id,
				created_at: new Date(),
			}),
		)
		.execute();
}

/**
 * Records a generation and queues its job in one transaction, after the quota check; a lock per
 * person makes two simultaneous requests count each other. With an Idempotency-Key, the same
 * request again (even at the same moment, from another process: the lock orders them) answers
 * with the generation the key made, and counts once against the quotas.
 *
 * A generation made from an image gets its own copy of that image, in its own folder, written
 * once the quotas let it be made and before its row is inserted: the row never names an object
 * that is not there, and if the transaction fails the copy is removed (decision 021).
 *
 * In a batch (`options.batch`, create-batch.ts) it joins the batch's one transaction instead of
 * opening its own, and its quota check counts the batch's generations still to come (decision 038).
 */
export async function createGeneration(
	deps: GenerationDeps,
	viewer: Viewer,
	request: CreateGenerationRequest,
	options: { idempotencyKey?: string; batch?: BatchSlot } = {},
): Promise<CreatedGeneration> {
	const source =
		request.reference === undefined
			? undefined
			: await findReferenceSource(deps, viewer, request.reference);
	const resolved = await resolveSettings(deps.models, request, source);
	const { model, settings, imageAction } = resolved;
	if (deps.promptBlocklist?.isBlocked(resolved.prompt)) {
		throw new AppError("PROMPT_BLOCKED", serverPromptBlocked);
	}
	const regionMask =
		imageAction?.action === "edit-region" && source
			? await findRegionMask(deps, viewer, request, source)
			: undefined;
	const styleDeps = { database: deps.database, operatorStyles: deps.operatorStyles ?? [] };
	const styleInput = {
		prompt: resolved.prompt,
		settings,
		takesNegativePrompt: model.negativePrompt,
	};
	const styled =
		request.style !== undefined
			? await styleGeneration(styleDeps, viewer, request.style, styleInput)
			: source?.kind === "generation"
				? await keepSourceStyle(styleDeps, viewer, source.parent, {
						...styleInput,
						isSourcePrompt: request.prompt === undefined && request.negativePrompt === null,
					})
				: undefined;
	// What the provider is asked for: a style (even a person's own) may not carry a blocked word.
	if (
		styled &&
		(deps.promptBlocklist?.isBlocked(styled.styled_prompt) ||
			deps.promptBlocklist?.isBlocked(styled.styled_negative_prompt ?? ""))
	) {
		throw new AppError("PROMPT_BLOCKED", serverPromptBlocked);
	}
	const originalPrompt = originalPromptOf(request);
	const id = randomUUID();
	const pollingUrl = pollingUrlFor(id);
	const { idempotencyKey } = options;
	const requestHash = hashRequest(request);
	const copiedKeys: string[] = [];
	const createInTransaction = async (
		transaction: Transaction<DatabaseSchema>,
	): Promise<CreatedGeneration | undefined> => {
		await sql`select pg_advisory_xact_lock(hashtext(${`generations:${viewer.id}`}))`.execute(
			transaction,
		);
		if (idempotencyKey !== undefined) {
			const keyed = await findKeyedGeneration(transaction, viewer.id, idempotencyKey, requestHash);
			if (keyed) return keyed;
		}
		const boardIds = request.boards ?? [];
		const ownBoards = await selectOwnPlainBoardIds(
			transaction,
			viewer.id,
			boardIds.filter((boardId) => GenerationIdSchema.safeParse(boardId).success),
		);
		const unknownBoard = boardIds.find((boardId) => !ownBoards.includes(boardId));
		if (unknownBoard !== undefined) {
			throw new AppError("NOT_FOUND", (options) => serverNoBoard({ board: unknownBoard }, options));
		}
		// The person's own quotas where the administrator set them: read under the lock, from the
		// database, so a change applies at once to every server process.
		const limits = await readPersonLimits(transaction, viewer.id, deps.limits);
		const active = await countActiveGenerations(transaction, viewer.id);
		// A batch's generations after this one count too: the whole batch fits, or none of it starts.
		const batchRest = options.batch?.rest ?? 0;
		if (batchRest > 0 && active + batchRest >= limits.maxActivePerUser) {
			throw new AppError("QUOTA_EXCEEDED", batchQuotaMessage(options.batch, active, limits));
		}
		if (active >= limits.maxActivePerUser) {
			throw new AppError("QUOTA_EXCEEDED", (options) =>
				serverQuotaActive({ count: active, limit: limits.maxActivePerUser }, options),
			);
		}
		if (limits.dailyLimitPerUser > 0) {
			const today = await countGenerationsSince(transaction, viewer.id, startOfUtcDay(new Date()));
			if (batchRest > 0 && today + batchRest >= limits.dailyLimitPerUser) {
				throw new AppError("QUOTA_EXCEEDED", batchDailyMessage(options.batch, today, limits));
			}
			if (today >= limits.dailyLimitPerUser) {
				throw new AppError("QUOTA_EXCEEDED", (options) =>
					serverQuotaDaily({ count: limits.dailyLimitPerUser }, options),
				);
			}
		}
		const referenceImage = source ? await storeReferenceCopy(deps.storage, id, source.image) : null;
		if (referenceImage) copiedKeys.push(referenceImage.key);
		const maskImage = regionMask ? await storeMaskCopy(deps.storage, id, regionMask.mask) : null;
		if (maskImage) copiedKeys.push(maskImage.key);
		const now = new Date();
		await insertGeneration(transaction, {
			id,
			user_id: viewer.id,
			prompt: resolved.prompt,
			aspect_ratio: resolved.aspectRatio,
			status: "queued",
			provider: model.provider.name,
			model_id: model.id,
			model_label: model.label,
			image_count: settings.count,
			seed: settings.seed,
			negative_prompt: settings.negativePrompt,
			quality: settings.quality,
			// The price when it was made: the people listing's spend does not change with the catalogue.
			price_per_image: model.pricePerImage ?? 0,
			stored_bytes: null,
			api_id: null,
			polling_url: pollingUrl,
			error: null,
			lease_owner: null,
			lease_until: null,
			created_at: now,
			updated_at: now,
			started_at: null,
			completed_at: null,
			action: imageAction?.action ?? null,
			reference_strength: imageAction?.strength ?? null,
			upscale_factor: imageAction?.factor ?? null,
			reference_image: referenceImage ? JSON.stringify(referenceImage) : null,
			parent_generation_id: source?.kind === "generation" ? source.parent.id : null,
			parent_image_index: source?.kind === "generation" ? source.imageIndex : null,
			from_upload: source?.kind === "upload",
			parent_upload_id: source?.kind === "upload" ? source.upload.id : null,
			region_mask: maskImage ? JSON.stringify(maskImage) : null,
			expand_frame: resolved.frame ? JSON.stringify(resolved.frame) : null,
			...styled,
			batch_id: options.batch?.id ?? null,
			original_prompt: originalPrompt,
		});
		// On its boards from the start, in the transaction that makes it (decision 032).
		await addGenerationToBoards(transaction, id, ownBoards);
		if (source?.kind === "upload") await markUploadUsed(transaction, source.upload.id);
		if (regionMask) await markUploadUsed(transaction, regionMask.upload.id);
		// A prompt the person typed joins their recall; a variation's or an upscale's is its parent's.
		if (request.prompt !== undefined && options.batch === undefined) {
			await rememberPrompt(transaction, viewer.id, resolved.prompt, now);
		}
		if (idempotencyKey !== undefined) {
			await rememberKey(transaction, {
				user_id: viewer.id,
				key: idempotencyKey,
				request_hash: requestHash,
				generation_id: id,
			});
		}
		await deps.queue.enqueue(id, { transaction });
		// Every open page of the person counts it as running once this commits, and every queued
		// generation's position may move (a newcomer goes ahead of those who have had turns).
		await notifyGenerationsChanged(transaction, [personChangeKey(viewer.id), QUEUE_MOVED_KEY]);
		return undefined;
	};
	let replay: CreatedGeneration | undefined;
	try {
		replay = options.batch
			? await options.batch.enlist(createInTransaction)
			: await deps.database.db.transaction().execute(createInTransaction);
	} catch (error) {
		// Nothing names the copies once the row is not there: remove them (else the sweep would).
		if (copiedKeys.length > 0) await removeCopies(deps, copiedKeys);
		throw error;
	}
	if (replay) return replay;
	// The job is visible now that the transaction has committed: start it without waiting for a poll.
	deps.queue.wake();
	return { id, pollingUrl, model: { id: model.id, label: model.label }, settings, isReplay: false };
}

/** What an enhanced prompt was written as, kept when it differs from the prompt used (decision 039). */
function originalPromptOf(request: CreateGenerationRequest): string | null {
	const { prompt, originalPrompt } = request;
	if (originalPrompt === undefined) return null;
	if (prompt === undefined) {
		throw new AppError("VALIDATION_ERROR", serverOriginalPromptOnlyWithPrompt);
	}
	return originalPrompt === prompt ? null : originalPrompt;
}

async function removeCopies(deps: Pick<GenerationDeps, "storage" | "logger">, keys: string[]) {
	try {
		await deps.storage.delete(keys);
	} catch (error) {
		deps.logger.warn("a reference copy of a generation not created was not removed", {
			keys,
			error,
		});
	}
}
