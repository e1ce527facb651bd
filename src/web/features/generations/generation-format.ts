import { type AspectRatio, findAspectRatio } from "../../../shared/aspect-ratios";
import { DATE_LOCALE } from "../../../shared/constants";

// Made once: building an Intl formatter costs far more than using one, and a history has thousands.
const TIME_FORMAT = new Intl.DateTimeFormat(DATE_LOCALE, { hour: "numeric", minute: "2-digit" });
const DATE_TIME_FORMAT = new Intl.DateTimeFormat(DATE_LOCALE, {
	month: "short",
	day: "numeric",
	year: "numeric",
	hour: "numeric",
	minute: "2-digit",
});
const COUNT_FORMAT = new Intl.NumberFormat(DATE_LOCALE);

function formatOrDash(format: Intl.DateTimeFormat, value: string): string {
	const date = new Date(value);
	return Number.isNaN(date.getTime()) ? "—" : format.format(date);
}

/** The time of day a generation was created, like "3:42 PM". */
export function formatCreatedTime(createdAt: string): string {
	return formatOrDash(TIME_FORMAT, createdAt);
}

/** The date and time a generation was created, like "Jan 5, 2025, 3:42 PM". */
export function formatCreatedDateTime(createdAt: string): string {
	return formatOrDash(DATE_TIME_FORMAT, createdAt);
}

/** The short ratio of an aspect-ratio flag: "--ar 16:9" gives "16:9". */
export function formatRatio(aspectRatio: AspectRatio): string {
	return aspectRatio.replace(/^--ar\s+/, "");
}

/** The ratio and its menu label, like "16:9 · Landscape (widescreen)". */
export function describeAspectRatio(aspectRatio: AspectRatio): string {
	return `${formatRatio(aspectRatio)} · ${findAspectRatio(aspectRatio).label}`;
}

/** A count in en-US form, like "1,204". */
export function formatCount(count: number): string {
	return COUNT_FORMAT.format(count);
}

/**
 * The summary line: the total and today's count, like "1,204 generations · 3 today"; of a search
 * or filter, how many match, like "12 generations match · 3 today".
 */
export function formatSummary(
	total: number,
	today: number,
	options: { isFiltered?: boolean } = {},
) {
	const noun = total === 1 ? "generation" : "generations";
	const verb = options.isFiltered ? (total === 1 ? " matches" : " match") : "";
	return `${formatCount(total)} ${noun}${verb} · ${formatCount(today)} today`;
}
