import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { GenerationModel, GenerationSettings } from "../../shared/generation-responses";
import type { CreateGenerationRequest, PollResponse } from "../../shared/generations";
import type { Database } from "../db/database";
import type { GenerationRow } from "../db/schema";
import { AppError } from "../http/errors";
import { createTransactionExecutor, type GenerationQueue } from "../jobs/generation-queue";
import type { Logger } from "../logging/logger";
import type { ModelCatalogue } from "../models/model-catalogue";
import type { Storage } from "../storage/storage";
import type { GenerationEvents } from "./generation-events";
import { pollingUrlFor, presentPoll } from "./generation-presenter";
import {
	countActiveGenerations,
	countGenerationsSince,
	findGenerationById,
	insertGeneration,
} from "./generation-repository";
import { resolveSettings } from "./resolve-settings";

export type Viewer = { id: string; email: string; isAdmin: boolean };

export type GenerationLimits = {
	maxActivePerUser: number;
	/** 0 turns the daily limit off. */
	dailyLimitPerUser: number;
};

export type GenerationDeps = {
	database: Database;
	storage: Storage;
	queue: GenerationQueue;
	events: GenerationEvents;
	/** The models offered; a deleted generation's job is cancelled at its model's provider. */
	models: ModelCatalogue;
	limits: GenerationLimits;
	logger: Logger;
};

function startOfUtcDay(now: Date): Date {
	return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * Records a generation and queues its job in one transaction, after the quota check; a lock per
 * person makes two simultaneous requests count each other.
 */
export async function createGeneration(
	deps: GenerationDeps,
	viewer: Viewer,
	request: CreateGenerationRequest,
): Promise<{
	id: string;
	pollingUrl: string;
	model: GenerationModel;
	settings: GenerationSettings;
}> {
	const { model, settings } = await resolveSettings(deps.models, request);
	const id = randomUUID();
	const pollingUrl = pollingUrlFor(id);
	await deps.database.db.transaction().execute(async (transaction) => {
		await sql`select pg_advisory_xact_lock(hashtext(${`generations:${viewer.id}`}))`.execute(
			transaction,
		);
		const active = await countActiveGenerations(transaction, viewer.id);
		if (active >= deps.limits.maxActivePerUser) {
			throw new AppError(
				"QUOTA_EXCEEDED",
				`You already have ${active} generation${active === 1 ? "" : "s"} in progress (the limit is ${deps.limits.maxActivePerUser}). Please wait for one to finish.`,
			);
		}
		if (deps.limits.dailyLimitPerUser > 0) {
			const today = await countGenerationsSince(transaction, viewer.id, startOfUtcDay(new Date()));
			if (today >= deps.limits.dailyLimitPerUser) {
				throw new AppError(
					"QUOTA_EXCEEDED",
					`You have reached today's limit of ${deps.limits.dailyLimitPerUser} generations. Please try again tomorrow.`,
				);
			}
		}
		const now = new Date();
		await insertGeneration(transaction, {
			id,
			user_id: viewer.id,
			prompt: request.prompt,
			aspect_ratio: request.aspectRatio,
			status: "queued",
			provider: model.provider.name,
			model_id: model.id,
			model_label: model.label,
			image_count: settings.count,
			seed: settings.seed,
			negative_prompt: settings.negativePrompt,
			quality: settings.quality,
			price_per_image: model.pricePerImage,
			api_id: null,
			polling_url: pollingUrl,
			error: null,
			lease_owner: null,
			lease_until: null,
			created_at: now,
			updated_at: now,
			started_at: null,
			completed_at: null,
		});
		await deps.queue.enqueue(id, createTransactionExecutor(transaction));
	});
	// The job is visible now that the transaction has committed: start it without waiting for a poll.
	deps.queue.wake();
	return { id, pollingUrl, model: { id: model.id, label: model.label }, settings };
}

/** The generation if the viewer may see it (owner or admin); anyone else learns nothing. */
export async function getGeneration(
	deps: Pick<GenerationDeps, "database">,
	viewer: Viewer,
	id: string,
): Promise<GenerationRow> {
	const row = await findGenerationById(deps.database.db, id);
	if (!row || (row.user_id !== viewer.id && !viewer.isAdmin)) throw new AppError("NOT_FOUND");
	return row;
}

/** Answers a poll at once when the generation is finished, else when it changes or `waitMs` passes. */
export async function pollGeneration(
	deps: Pick<GenerationDeps, "database" | "events">,
	viewer: Viewer,
	id: string,
	waitMs: number,
	signal?: AbortSignal,
): Promise<PollResponse> {
	const row = await getGeneration(deps, viewer, id);
	if (row.status === "completed" || row.status === "failed" || waitMs <= 0) return presentPoll(row);
	const changed = deps.events.waitForChange(id, waitMs, signal);
	// Read again after subscribing, so a change between the two reads is not missed.
	const current = await getGeneration(deps, viewer, id);
	if (
		current.status !== row.status ||
		current.api_id !== row.api_id ||
		current.status_message !== row.status_message
	) {
		return presentPoll(current);
	}
	await changed;
	return presentPoll(await getGeneration(deps, viewer, id));
}
