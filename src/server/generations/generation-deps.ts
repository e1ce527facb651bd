import type { PromptStyle } from "../../shared/prompt-tool-responses";
import type { Database } from "../db/database";
import type { GenerationQueue } from "../jobs/generation-queue";
import type { Logger } from "../logging/logger";
import type { ModelCatalogue } from "../models/model-catalogue";
import type { Storage } from "../storage/storage";
import type { GenerationEvents } from "./generation-events";

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
	/** The operator's styles (STYLES_FILE), which a generation may name beside the person's own. */
	operatorStyles?: readonly PromptStyle[];
};
