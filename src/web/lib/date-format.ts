// Dates as the history, the audit log, the usage report and the account page show them, in en-US form.
import { DATE_LOCALE } from "../../shared/constants";

// Made once: building an Intl formatter costs far more than using one, and a history has thousands.
const TIME_FORMAT = new Intl.DateTimeFormat(DATE_LOCALE, { hour: "numeric", minute: "2-digit" });
const DATE_TIME_FORMAT = new Intl.DateTimeFormat(DATE_LOCALE, {
	month: "short",
	day: "numeric",
	year: "numeric",
	hour: "numeric",
	minute: "2-digit",
});

const LOCAL_DAY_FORMAT = new Intl.DateTimeFormat(DATE_LOCALE, {
	month: "short",
	day: "numeric",
	year: "numeric",
});

// A calendar day (YYYY-MM-DD) is read as midnight UTC and shown in UTC, so no zone moves it.
const DAY_FORMAT = new Intl.DateTimeFormat(DATE_LOCALE, {
	month: "short",
	day: "numeric",
	year: "numeric",
	timeZone: "UTC",
});
const SHORT_DAY_FORMAT = new Intl.DateTimeFormat(DATE_LOCALE, {
	month: "short",
	day: "numeric",
	timeZone: "UTC",
});

function formatOrDash(format: Intl.DateTimeFormat, value: string | Date): string {
	const date = new Date(value);
	return Number.isNaN(date.getTime()) ? "—" : format.format(date);
}

/** The time of day of an ISO timestamp, like "3:42 PM"; "—" when it is not a date. */
export function formatTimeOfDay(timestamp: string): string {
	return formatOrDash(TIME_FORMAT, timestamp);
}

/** The date and time of an ISO timestamp or a date, like "Jan 5, 2025, 3:42 PM"; "—" when it is not a date. */
export function formatDateTime(timestamp: string | Date): string {
	return formatOrDash(DATE_TIME_FORMAT, timestamp);
}

/** The day of an ISO timestamp, in the browser's zone, like "Jan 5, 2025"; "—" when it is not a date. */
export function formatDay(timestamp: string): string {
	return formatOrDash(LOCAL_DAY_FORMAT, timestamp);
}

/** A calendar day, `YYYY-MM-DD`, like "Jan 5, 2025"; "—" when it is not a day. */
export function formatCalendarDay(day: string): string {
	return formatOrDash(DAY_FORMAT, `${day}T00:00:00Z`);
}

/** A calendar day, `YYYY-MM-DD`, like "Jan 5" (a chart's axis); "—" when it is not a day. */
export function formatShortCalendarDay(day: string): string {
	return formatOrDash(SHORT_DAY_FORMAT, `${day}T00:00:00Z`);
}
