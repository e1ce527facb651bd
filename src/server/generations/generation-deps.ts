import type { Transaction } from "kysely";
import type { PromptStyle } from "../../shared/prompt-tool-responses";
import type { PromptBlocklist } from "../config/prompt-blocklist";
import type { Database } from "../db/database";
import type { DatabaseSchema, GenerationRow } from "../db/schema";
import type { GenerationQueue } from "../jobs/generation-queue";
import type { Logger } from "../logging/logger";
import type { ModelCatalogue } from "../models/model-catalogue";
import type { Storage } from "../storage/storage";
import type { GenerationEvents } from "./generation-events";

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
