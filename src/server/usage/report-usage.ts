import {
	FAILURE_REASON_VALUES,
	type FailureReason,
	USAGE_DAYS,
	type UsageReport,
} from "../../shared/admin/usage-responses";
import type { GenerationDeps } from "../generations/generation-deps";
import { classifyFailure } from "./failure-reason";
import {
	countEnhancements,
	selectCompletionTimes,
	selectEnhancementsByPerson,
	selectFailureMessages,
	selectStoredTotals,
	selectTopSpenders,
	selectUsageByDayAndModel,
	selectUsageWindow,
} from "./usage-repository";

const TOP_SPENDERS = 10;

/** The people listed with their Enhance calls, most first. */
const TOP_ENHANCERS = 20;

/** The `count` calendar days that end with `today` (`YYYY-MM-DD`), oldest first. */
export function listDaysUntil(today: string, count: number): string[] {
	const end = Date.parse(`${today}T00:00:00Z`);
	return Array.from({ length: count }, (_, index) =>
		new Date(end - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10),
	);
}

/**
 * The administrator's usage report: the last USAGE_DAYS days in `timeZone` (generations by model,
 * failures by reason, time to complete, storage, spend and its top spenders), with what is stored
 * now. Its route is behind the gate's allowAdminOnly, as the audit log's is.
 */
export async function reportUsage(
	deps: Pick<GenerationDeps, "database" | "models">,
	query: { timeZone: string },
): Promise<UsageReport> {
	const { db } = deps.database;
	const { today, start } = await selectUsageWindow(db, query.timeZone, USAGE_DAYS);
	const window = { start, timeZone: query.timeZone };
	const [usage, failures, times, stored, spenders, enhanceCalls, enhancers] = await Promise.all([
		selectUsageByDayAndModel(db, window),
		selectFailureMessages(db, window),
		selectCompletionTimes(db, window),
		selectStoredTotals(db),
		selectTopSpenders(db, window, TOP_SPENDERS),
		countEnhancements(db, window),
		selectEnhancementsByPerson(db, window, TOP_ENHANCERS),
	]);
	const days = listDaysUntil(today, USAGE_DAYS);

	const labels = new Map<string, string>();
	for (const row of [...usage].sort((left, right) => left.day.localeCompare(right.day))) {
		labels.set(row.model_id, deps.models.find(row.model_id)?.label ?? row.model_label);
	}

	const failureCounts = new Map<string, number>();
	for (const row of failures) {
		const key = `${row.day} ${classifyFailure(row.error)}`;
		failureCounts.set(key, (failureCounts.get(key) ?? 0) + row.count);
	}

	const sumByDay = (pick: (row: (typeof usage)[number]) => number) => {
		const sums = new Map<string, number>();
		for (const row of usage) sums.set(row.day, (sums.get(row.day) ?? 0) + pick(row));
		return sums;
	};
	const imagesByDay = sumByDay((row) => row.images);
	const bytesByDay = sumByDay((row) => row.bytes);
	const spendByDay = sumByDay((row) => row.spend);

	return {
		timeZone: query.timeZone,
		days,
		models: [...labels]
			.map(([id, label]) => ({ id, label }))
			.sort((left, right) => left.label.localeCompare(right.label)),
		generationsByDay: usage
			.map((row) => ({
				day: row.day,
				modelId: row.model_id,
				completed: row.completed,
				failed: row.failed,
				total: row.total,
			}))
			.sort(
				(left, right) =>
					left.day.localeCompare(right.day) || left.modelId.localeCompare(right.modelId),
			),
		failuresByDay: days.flatMap((day) =>
			FAILURE_REASON_VALUES.flatMap((reason: FailureReason) => {
				const count = failureCounts.get(`${day} ${reason}`);
				return count ? [{ day, reason, count }] : [];
			}),
		),
		completionTimes: times
			.map((row) => ({
				modelId: row.model_id,
				completed: row.completed,
				medianSeconds: row.median_seconds,
			}))
			.sort((left, right) => left.modelId.localeCompare(right.modelId)),
		storage: {
			totalImages: stored.images,
			totalBytes: stored.bytes,
			imagesWithoutBytes: stored.images_without_bytes,
			trashImages: stored.trash_images,
			trashBytes: stored.trash_bytes,
			byDay: days.map((day) => ({
				day,
				images: imagesByDay.get(day) ?? 0,
				bytes: bytesByDay.get(day) ?? 0,
			})),
		},
		spend: {
			currency: "USD",
			total: usage.reduce((total, row) => total + row.spend, 0),
			unpricedImages: usage.reduce((total, row) => total + row.unpriced_images, 0),
			byDay: days.map((day) => ({ day, amount: spendByDay.get(day) ?? 0 })),
		},
		topSpenders: spenders,
		enhance: { total: enhanceCalls, byPerson: enhancers },
	};
}
