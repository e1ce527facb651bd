// Dates as the history, the audit log, the usage report and the account page show them, in the
// page's language: en-US form in English (docs/decisions/037-languages.md).
import { INTL_LOCALES } from "../../../shared/i18n/languages";
import { readActiveLanguage } from "../../../shared/i18n/runtime";

// Made once a language: building an Intl formatter costs far more than using one, and a history
// has thousands.
const formats = new Map<string, Intl.DateTimeFormat>();

function readFormat(name: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
	const locale = readDateLocale();
	const key = `${name} ${locale}`;
	let format = formats.get(key);
	if (!format) {
		format = new Intl.DateTimeFormat(locale, options);
		formats.set(key, format);
	}
	return format;
}

/** The Intl locale of the page's language, for a formatter made elsewhere (the history's days). */
export function readDateLocale(): string {
	return INTL_LOCALES[readActiveLanguage()];
}

const TIME_FORMAT: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit" };
const DATE_TIME_FORMAT: Intl.DateTimeFormatOptions = {
	month: "short",
	day: "numeric",
	year: "numeric",
	hour: "numeric",
	minute: "2-digit",
};

const LOCAL_DAY_FORMAT: Intl.DateTimeFormatOptions = {
	month: "short",
	day: "numeric",
	year: "numeric",
};

// A calendar day (YYYY-MM-DD) is read as midnight UTC and shown in UTC, so no zone moves it.
const DAY_FORMAT: Intl.DateTimeFormatOptions = {
	month: "short",
	day: "numeric",
	year: "numeric",
	timeZone: "UTC",
};
const SHORT_DAY_FORMAT: Intl.DateTimeFormatOptions = {
	month: "short",
	day: "numeric",
	timeZone: "UTC",
};

function formatOrDash(
	name: string,
	options: Intl.DateTimeFormatOptions,
	value: string | Date,
): string {
	const date = new Date(value);
	return Number.isNaN(date.getTime()) ? "—" : readFormat(name, options).format(date);
}

/** The time of day of an ISO timestamp, like "3:42 PM"; "—" when it is not a date. */
export function formatTimeOfDay(timestamp: string): string {
	return formatOrDash("TIME_FORMAT", TIME_FORMAT, timestamp);
}

/** The date and time of an ISO timestamp or a date, like "Jan 5, 2025, 3:42 PM"; "—" when it is not a date. */
export function formatDateTime(timestamp: string | Date): string {
	return formatOrDash("DATE_TIME_FORMAT", DATE_TIME_FORMAT, timestamp);
}

/** The day of an ISO timestamp, in the browser's zone, like "Jan 5, 2025"; "—" when it is not a date. */
export function formatDay(timestamp: string): string {
	return formatOrDash("LOCAL_DAY_FORMAT", LOCAL_DAY_FORMAT, timestamp);
}

/** A calendar day, `YYYY-MM-DD`, like "Jan 5, 2025"; "—" when it is not a day. */
export function formatCalendarDay(day: string): string {
	return formatOrDash("DAY_FORMAT", DAY_FORMAT, `${day}T00:00:00Z`);
}

/** A calendar day, `YYYY-MM-DD`, like "Jan 5" (a chart's axis); "—" when it is not a day. */
export function formatShortCalendarDay(day: string): string {
	return formatOrDash("SHORT_DAY_FORMAT", SHORT_DAY_FORMAT, `${day}T00:00:00Z`);
}
