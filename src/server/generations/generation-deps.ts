import type { Transaction } from "kysely";
import type { PromptStyle } from "../../shared/prompts/prompt-tool-responses";
import type { PromptBlocklist } from "../config/prompt-blocklist";
import type { Database } from "../db/database";
import type { DatabaseSchema, GenerationRow } from "../db/schema";
import type { GenerationQueue } from "../jobs/generation-queue";
import type { Logger } from "../logging/logger";
import type { ModelCatalogue } from "../models/model-catalogue";
import type { Storage } from "../storage/storage";
import type { GenerationEvents } from "./generation-events";

/** How long a stream lasts and how often it proves it is still wanted (GenerationLimits.streamTimes). */
export type GenerationStreamTimes = {
	/** A comment this often, so proxies and the browser see the connection alive. */
	heartbeatMs: number;
	/** The session (or token) is read again this often; signed out or disabled ends the stream. */
	accessCheckMs: number;
	/** The stream ends after this long; the browser opens the next one (a fresh look at access). */
	lifetimeMs: number;
	/** Progress and queue moves of a stream are sent at most once in this long (the first at once). */
	progressIntervalMs: number;
};

export const DEFAULT_GENERATION_STREAM_TIMES: GenerationStreamTimes = {
	heartbeatMs: 15_000,
	accessCheckMs: 30_000,
	lifetimeMs: 5 * 60_000,
	progressIntervalMs: 250,
};

export type GenerationLimits = {
	maxActivePerUser: number;
	/** 0 turns the daily limit off. */
	dailyLimitPerUser: number;
	/**
	 * The most generations one batch may start (MAX_BATCH_GENERATIONS);
	 * DEFAULT_MAX_BATCH_GENERATIONS when not given.
	 */
	maxBatchGenerations?: number;
	/**
	 * Days a deleted generation stays in the Trash before the purge removes it for good
	 * (TRASH_DAYS); 0 deletes at once, without a Trash. DEFAULT_TRASH_DAYS when not given.
	 */
	trashDays?: number;
	/** GET /api/generations/events's times; DEFAULT_GENERATION_STREAM_TIMES for those not given. */
	streamTimes?: Partial<GenerationStreamTimes>;
};

/** MAX_BATCH_GENERATIONS's default. */
export const DEFAULT_MAX_BATCH_GENERATIONS = 16;

/** TRASH_DAYS's default. */
export const DEFAULT_TRASH_DAYS = 30;

/**
 * What else commits with a deletion, in its transaction: the `generation.deleted` webhook events
 * and the end of the generations' shared links (webhooks/ and sharing/, which stand above
 * generations/ and so are handed in).
 */
export type OnGenerationsDeleted = (
	transaction: Transaction<DatabaseSchema>,
	rows: readonly GenerationRow[],
	permanent: boolean,
) => Promise<void>;

export type GenerationDeps = {
	database: Database;
	storage: Storage;
	queue: GenerationQueue;
	events: GenerationEvents;
	/** The models offered; a deleted generation's job is cancelled at its model's provider. */
	models: ModelCatalogue;
	limits: GenerationLimits;
	logger: Logger;
	/** PROMPT_BLOCKLIST_FILE: prompts refused when generating (and when sharing, sharing/). */
	promptBlocklist?: PromptBlocklist;
	onDeleted?: OnGenerationsDeleted;
	/** The operator's styles (STYLES_FILE), which a generation may name beside the person's own. */
	operatorStyles?: readonly PromptStyle[];
};
