import type { Transaction } from "kysely";
import {
	serverBatchDaily,
	serverBatchQuota,
	serverGenerationCount,
} from "../../../shared/i18n/messages";
import type { DatabaseSchema } from "../../db/schema";
import type { LocalizedMessage } from "../../errors/app-error";

/**
 * One generation's place in a batch (create-batch.ts): the batch's id, how many of the batch's
 * generations come after it, and the way its insert joins the batch's one transaction. The
 * transaction runs once every generation of the batch has enlisted, in the batch's order.
 */
export type BatchSlot = {
	id: string;
	/** Generations of the batch inserted after this one: counted against the quotas with it. */
	rest: number;
	/** The batch's size (the quota messages say it). */
	size: number;
	enlist<Result>(
		insert: (transaction: Transaction<DatabaseSchema>) => Promise<Result>,
	): Promise<Result>;
};

type Limits = { maxActivePerUser: number; dailyLimitPerUser: number };

/** The concurrency quota's refusal of a batch that does not fit as a whole. */
export function batchQuotaMessage(
	batch: Pick<BatchSlot, "rest" | "size"> | undefined,
	active: number,
	limits: Limits,
): LocalizedMessage {
	// `active` counts the batch's own generations already inserted in its transaction.
	const size = batch?.size ?? 1;
	const before = active - (size - 1 - (batch?.rest ?? 0));
	return (options) =>
		serverBatchQuota(
			{
				generations: serverGenerationCount({ count: size }, options),
				active: before,
				limit: limits.maxActivePerUser,
			},
			options,
		);
}

/** The daily quota's refusal of a batch that does not fit as a whole. */
export function batchDailyMessage(
	batch: Pick<BatchSlot, "rest" | "size"> | undefined,
	today: number,
	limits: Limits,
): LocalizedMessage {
	const size = batch?.size ?? 1;
	const before = today - (size - 1 - (batch?.rest ?? 0));
	const left = Math.max(limits.dailyLimitPerUser - before, 0);
	return (options) =>
		serverBatchDaily(
			{
				generations: serverGenerationCount({ count: size }, options),
				count: left,
				limit: limits.dailyLimitPerUser,
			},
			options,
		);
}
