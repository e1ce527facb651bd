import { z } from "zod";

// Building a formatter costs about 0.1 ms, so each time zone's is made once. Bounded: a zone's
// name may be spelt in any case, and each spelling is its own key.
const CLOCK_FORMATS_MAX = 1_000;
const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** A 24-hour clock in `timeZone`; throws a RangeError for an unknown zone. */
function readClockFormat(timeZone: string): Intl.DateTimeFormat {
	let format = clockFormats.get(timeZone);
	if (!format) {
		format = new Intl.DateTimeFormat("en-US", {
			timeZone,
			hourCycle: "h23",
			hour: "numeric",
			minute: "numeric",
			second: "numeric",
		});
		if (clockFormats.size >= CLOCK_FORMATS_MAX) clockFormats.clear();
		clockFormats.set(timeZone, format);
	}
	return format;
}

/** An IANA time zone the server knows, as the browser sends it. */
export const TimeZoneSchema = z
	.string()
	.max(64)
	.refine((zone) => {
		try {
			readClockFormat(zone);
			return true;
		} catch {
			return false;
		}
	}, "Unknown time zone.");

/** Midnight today in `timeZone`, as an instant. */
export function startOfDayIn(timeZone: string, now: Date = new Date()): Date {
	const parts = readClockFormat(timeZone).formatToParts(now);
	const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value ?? 0);
	const sinceMidnight = (part("hour") * 3600 + part("minute") * 60 + part("second")) * 1000;
	return new Date(now.getTime() - sinceMidnight - now.getMilliseconds());
}
