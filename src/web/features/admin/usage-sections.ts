// The usage report as the screen shows it: each chart's numbers as one table of raw values, which
// the chart draws, the <table> shows (each column formatting its own) and the CSV download writes.
// One home for each chart's data, so the three never disagree.

import {
	FAILURE_REASON_VALUES,
	FAILURE_REASONS,
	USAGE_DAYS,
	type UsageReport,
} from "../../../shared/admin/usage-responses";
import {
	adminColumnPerson,
	adminUsageBytes,
	adminUsageCompleted,
	adminUsageDay,
	adminUsageDollars,
	adminUsageEnhanceDescription,
	adminUsageEnhanceNote,
	adminUsageEnhanceTitle,
	adminUsageFailed,
	adminUsageFailures,
	adminUsageFailuresDescription,
	adminUsageFailuresTitle,
	adminColumnGenerations as adminUsageGenerations,
	adminUsageGenerationsDescription,
	adminUsageGenerationsTitle,
	adminColumnImages as adminUsageImages,
	adminUsageInTrash,
	adminUsageMedianSeconds,
	adminUsageModel,
	adminUsageNobodySpent,
	adminUsageNoCompleted,
	adminUsageNoEnhance,
	adminUsageNoFailures,
	adminUsageNoGenerations,
	adminUsageNoImages,
	adminUsageNoSpend,
	adminUsageNotCounted,
	adminUsagePartialBytes,
	adminUsageReason,
	adminUsageRewrites,
	adminUsageSeconds,
	adminUsageSpendColumn,
	adminUsageSpendDescription,
	adminUsageSpendTitle,
	adminUsageSpendTotal,
	adminUsageStorageDescription,
	adminUsageStorageTitle,
	adminUsageStoredNow,
	adminUsageTimesColumn,
	adminUsageTimesDescription,
	adminUsageTimesTitle,
	adminUsageTopDescription,
	adminUsageTopTitle,
	adminUsageTotal,
	adminUsageTotalNote,
	numberSeconds,
} from "../../../shared/i18n/messages";
import { formatCalendarDay, formatShortCalendarDay } from "../../lib/ui/date-format";
import { formatBytes, formatCount, formatDecimal, formatMoney } from "../../lib/ui/number-format";

// Every text here is written when the sections are built, in the page's language.

type Cell = string | number;

export type UsageColumn = {
	label: string;
	/** How the table shows a value; the CSV writes it raw. */
	format?: (value: Cell) => string;
	isNumeric?: boolean;
};

export type UsageChartSeries = {
	label: string;
	data: number[];
	/** A line over the bars, on the right-hand axis (the bytes beside the image counts). */
	isLine?: boolean;
};

export type UsageChartSpec = {
	labels: string[];
	series: UsageChartSeries[];
	isStacked?: boolean;
	/** Bars along the vertical axis, for long category names (models, people). */
	isHorizontal?: boolean;
	valueTitle: string;
	lineTitle?: string;
};

export type UsageSection = {
	id: string;
	title: string;
	/** What the chart shows, said once beside it and as its canvas' label. */
	description: string;
	columns: UsageColumn[];
	rows: Cell[][];
	chart: UsageChartSpec;
	/** Shown instead of the chart and table when there is nothing to draw. */
	emptyMessage: string;
	isEmpty: boolean;
	/** What the numbers leave out, or add up to. */
	notes: string[];
};

/** A cell's number written by `format`; text (a day, a model) stays as it is. */
function formatNumberCell(format: (value: number) => string): (value: Cell) => string {
	return (value) => (typeof value === "number" ? format(value) : value);
}

const formatCountCell = formatNumberCell(formatCount);
const formatMoneyCell = formatNumberCell(formatMoney);
const formatBytesCell = formatNumberCell(formatBytes);

const formatSecondsCell = formatNumberCell((value) =>
	numberSeconds({ seconds: formatDecimal(value) }),
);

function formatDayCell(value: Cell): string {
	return typeof value === "string" ? formatCalendarDay(value) : String(value);
}

function dayColumn(): UsageColumn {
	return { label: adminUsageDay(), format: formatDayCell };
}

/** The window every sentence names: "the last 30 days". */
const DAYS = { days: USAGE_DAYS };

function buildGenerations(report: UsageReport): UsageSection {
	const dayLabels = report.days.map(formatShortCalendarDay);
	const dayIndex = new Map(report.days.map((day, index) => [day, index]));
	const labelOf = new Map(report.models.map((model) => [model.id, model.label]));
	const modelOrder = new Map(report.models.map((model, index) => [model.id, index]));
	const rows = [...report.generationsByDay]
		.sort(
			(left, right) =>
				left.day.localeCompare(right.day) ||
				(modelOrder.get(left.modelId) ?? 0) - (modelOrder.get(right.modelId) ?? 0),
		)
		.map((entry) => [
			entry.day,
			labelOf.get(entry.modelId) ?? entry.modelId,
			entry.completed,
			entry.failed,
			entry.total,
		]);
	const series = report.models.map((model) => {
		const data = report.days.map(() => 0);
		for (const entry of report.generationsByDay) {
			const index = dayIndex.get(entry.day);
			if (entry.modelId === model.id && index !== undefined) data[index] = entry.total;
		}
		return { label: model.label, data };
	});
	return {
		id: "generations",
		title: adminUsageGenerationsTitle(),
		description: adminUsageGenerationsDescription(DAYS),
		columns: [
			dayColumn(),
			{ label: adminUsageModel() },
			{ label: adminUsageCompleted(), format: formatCountCell, isNumeric: true },
			{ label: adminUsageFailed(), format: formatCountCell, isNumeric: true },
			{ label: adminUsageTotal(), format: formatCountCell, isNumeric: true },
		],
		rows,
		chart: { labels: dayLabels, series, isStacked: true, valueTitle: adminUsageGenerations() },
		emptyMessage: adminUsageNoGenerations(DAYS),
		isEmpty: rows.length === 0,
		notes: [adminUsageTotalNote()],
	};
}

function buildFailures(report: UsageReport): UsageSection {
	const dayIndex = new Map(report.days.map((day, index) => [day, index]));
	const rows = report.failuresByDay.map((entry) => [
		entry.day,
		FAILURE_REASONS[entry.reason].label(),
		entry.count,
	]);
	const series = FAILURE_REASON_VALUES.flatMap((reason) => {
		const entries = report.failuresByDay.filter((entry) => entry.reason === reason);
		if (entries.length === 0) return [];
		const data = report.days.map(() => 0);
		for (const entry of entries) {
			const index = dayIndex.get(entry.day);
			if (index !== undefined) data[index] = entry.count;
		}
		return [{ label: FAILURE_REASONS[reason].label(), data }];
	});
	return {
		id: "failures",
		title: adminUsageFailuresTitle(),
		description: adminUsageFailuresDescription(DAYS),
		columns: [
			dayColumn(),
			{ label: adminUsageReason() },
			{ label: adminUsageFailures(), format: formatCountCell, isNumeric: true },
		],
		rows,
		chart: {
			labels: report.days.map(formatShortCalendarDay),
			series,
			isStacked: true,
			valueTitle: adminUsageFailures(),
		},
		emptyMessage: adminUsageNoFailures(DAYS),
		isEmpty: rows.length === 0,
		notes: [],
	};
}

function buildCompletionTimes(report: UsageReport): UsageSection {
	const labelOf = new Map(report.models.map((model) => [model.id, model.label]));
	const entries = [...report.completionTimes].sort((left, right) =>
		(labelOf.get(left.modelId) ?? left.modelId).localeCompare(
			labelOf.get(right.modelId) ?? right.modelId,
		),
	);
	const labels = entries.map((entry) => labelOf.get(entry.modelId) ?? entry.modelId);
	return {
		id: "completion-times",
		title: adminUsageTimesTitle(),
		description: adminUsageTimesDescription(DAYS),
		columns: [
			{ label: adminUsageModel() },
			{ label: adminUsageCompleted(), format: formatCountCell, isNumeric: true },
			{ label: adminUsageTimesColumn(), format: formatSecondsCell, isNumeric: true },
		],
		rows: entries.map((entry, index) => [
			labels[index] ?? entry.modelId,
			entry.completed,
			entry.medianSeconds,
		]),
		chart: {
			labels,
			series: [
				{ label: adminUsageMedianSeconds(), data: entries.map((entry) => entry.medianSeconds) },
			],
			isHorizontal: true,
			valueTitle: adminUsageSeconds(),
		},
		emptyMessage: adminUsageNoCompleted(DAYS),
		isEmpty: entries.length === 0,
		notes: [],
	};
}

function buildStorage(report: UsageReport): UsageSection {
	const { storage } = report;
	const notes = [
		adminUsageStoredNow({ count: storage.totalImages, bytes: formatBytes(storage.totalBytes) }),
	];
	if (storage.trashImages) {
		notes.push(
			adminUsageInTrash({
				count: storage.trashImages,
				bytes: formatBytes(storage.trashBytes ?? 0),
			}),
		);
	}
	if (storage.imagesWithoutBytes > 0) {
		notes.push(adminUsagePartialBytes({ count: storage.imagesWithoutBytes }));
	}
	return {
		id: "storage",
		title: adminUsageStorageTitle(),
		description: adminUsageStorageDescription(DAYS),
		columns: [
			dayColumn(),
			{ label: adminUsageImages(), format: formatCountCell, isNumeric: true },
			{ label: adminUsageBytes(), format: formatBytesCell, isNumeric: true },
		],
		rows: storage.byDay.map((entry) => [entry.day, entry.images, entry.bytes]),
		chart: {
			labels: report.days.map(formatShortCalendarDay),
			series: [
				{ label: adminUsageImages(), data: storage.byDay.map((entry) => entry.images) },
				{
					label: adminUsageBytes(),
					data: storage.byDay.map((entry) => entry.bytes),
					isLine: true,
				},
			],
			valueTitle: adminUsageImages(),
			lineTitle: adminUsageBytes(),
		},
		emptyMessage: adminUsageNoImages(DAYS),
		isEmpty: storage.byDay.every((entry) => entry.images === 0),
		notes,
	};
}

function buildSpend(report: UsageReport): UsageSection {
	const { spend } = report;
	const notes = [adminUsageSpendTotal({ ...DAYS, amount: formatMoney(spend.total) })];
	if (spend.unpricedImages > 0) notes.push(adminUsageNotCounted({ count: spend.unpricedImages }));
	return {
		id: "spend",
		title: adminUsageSpendTitle(),
		description: adminUsageSpendDescription(DAYS),
		columns: [
			dayColumn(),
			{ label: adminUsageSpendColumn(), format: formatMoneyCell, isNumeric: true },
		],
		rows: spend.byDay.map((entry) => [entry.day, entry.amount]),
		chart: {
			labels: report.days.map(formatShortCalendarDay),
			series: [{ label: adminUsageSpendColumn(), data: spend.byDay.map((entry) => entry.amount) }],
			valueTitle: adminUsageDollars(),
		},
		emptyMessage: adminUsageNoSpend(DAYS),
		isEmpty: spend.byDay.every((entry) => entry.amount === 0),
		notes,
	};
}

function buildTopSpenders(report: UsageReport): UsageSection {
	return {
		id: "top-spenders",
		title: adminUsageTopTitle(),
		description: adminUsageTopDescription(DAYS),
		columns: [
			{ label: adminColumnPerson() },
			{ label: adminUsageImages(), format: formatCountCell, isNumeric: true },
			{ label: adminUsageSpendColumn(), format: formatMoneyCell, isNumeric: true },
		],
		rows: report.topSpenders.map((entry) => [entry.email, entry.images, entry.amount]),
		chart: {
			labels: report.topSpenders.map((entry) => entry.email),
			series: [
				{
					label: adminUsageSpendColumn(),
					data: report.topSpenders.map((entry) => entry.amount),
				},
			],
			isHorizontal: true,
			valueTitle: adminUsageDollars(),
		},
		emptyMessage: adminUsageNobodySpent(DAYS),
		isEmpty: report.topSpenders.length === 0,
		notes: [],
	};
}

function buildEnhance(report: UsageReport): UsageSection {
	const people = report.enhance?.byPerson ?? [];
	const total = report.enhance?.total ?? 0;
	return {
		id: "enhance",
		title: adminUsageEnhanceTitle(),
		description: adminUsageEnhanceDescription(DAYS),
		columns: [
			{ label: adminColumnPerson() },
			{ label: adminUsageRewrites(), format: formatCountCell, isNumeric: true },
		],
		rows: people.map((entry) => [entry.email, entry.calls]),
		chart: {
			labels: people.map((entry) => entry.email),
			series: [{ label: adminUsageRewrites(), data: people.map((entry) => entry.calls) }],
			isHorizontal: true,
			valueTitle: adminUsageRewrites(),
		},
		emptyMessage: adminUsageNoEnhance(DAYS),
		isEmpty: people.length === 0,
		notes: total > 0 ? [adminUsageEnhanceNote({ count: total })] : [],
	};
}

/** Every chart of the usage screen, in the order it shows them. */
export function buildUsageSections(report: UsageReport): UsageSection[] {
	return [
		buildGenerations(report),
		buildFailures(report),
		buildCompletionTimes(report),
		buildStorage(report),
		buildSpend(report),
		buildTopSpenders(report),
		...(report.enhance ? [buildEnhance(report)] : []),
	];
}

/** Whether the report has nothing at all to show: no generation in the window, no image stored. */
export function isUsageEmpty(report: UsageReport): boolean {
	return report.generationsByDay.length === 0 && report.storage.totalImages === 0;
}

/** A section's rows as CSV (RFC 4180): its column labels, then raw values, quoted where needed. */
export function toCsv(section: Pick<UsageSection, "columns" | "rows">): string {
	const quote = (cell: Cell) => {
		// A text starting like a formula (an e-mail address may) is kept text in a spreadsheet.
		const text = typeof cell === "string" && /^[=+\-@]/.test(cell) ? `'${cell}` : String(cell);
		return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
	};
	return [section.columns.map((column) => column.label), ...section.rows]
		.map((row) => row.map(quote).join(","))
		.join("\r\n")
		.concat("\r\n");
}
