import type { Transaction } from "kysely";
import type { DatabaseSchema } from "../../db/schema";

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

function generations(count: number): string {
	return `${count} generation${count === 1 ? "" : "s"}`;
}

/** The concurrency quota's refusal of a batch that does not fit as a whole. */
export function batchQuotaMessage(
	batch: Pick<BatchSlot, "rest" | "size"> | undefined,
	active: number,
	limits: Limits,
): string {
	// `active` counts the batch's own generations already inserted in its transaction.
	const size = batch?.size ?? 1;
	const before = active - (size - 1 - (batch?.rest ?? 0));
	return `This makes ${generations(size)}, and you already have ${before} in progress (the limit is ${limits.maxActivePerUser}). Please make fewer, or wait for some to finish.`;
}

/** The daily quota's refusal of a batch that does not fit as a whole. */
export function batchDailyMessage(
	batch: Pick<BatchSlot, "rest" | "size"> | undefined,
	today: number,
	limits: Limits,
): string {
	const size = batch?.size ?? 1;
	const before = today - (size - 1 - (batch?.rest ?? 0));
	const left = Math.max(limits.dailyLimitPerUser - before, 0);
	return `This makes ${generations(size)}, and ${left} ${left === 1 ? "is" : "are"} left of today's limit of ${limits.dailyLimitPerUser}. Please make fewer, or try again tomorrow.`;
}
