import { DATE_LOCALE } from "../core/constants";

/** Items created on one calendar day, labelled like "Jan 5, 2025" (en-US) or "5. Jan. 2025" (de-DE). */
export type DateGroup<Item> = {
	/** Stable per day: the label itself, which names exactly one day. */
	key: string;
	label: string;
	items: Item[];
};

type DatedItem = { created_at: string };

/** The label of items whose creation time cannot be read; such a group always comes last. */
export const UNKNOWN_DATE_LABEL = "Unknown date";

type DateGrouperOptions = {
	/** IANA zone the calendar days are counted in; the runtime's own zone when left out. */
	timeZone?: string;
	/** The Intl locale the day is written in: en-US when left out. */
	locale?: string;
	/** What a day that cannot be read is called: UNKNOWN_DATE_LABEL when left out. */
	unknownLabel?: string;
};

type ReadDate = { time: number; label: string };

function createDayFormatter({ timeZone, locale }: DateGrouperOptions): Intl.DateTimeFormat {
	return new Intl.DateTimeFormat(locale ?? DATE_LOCALE, {
		month: "short",
		day: "numeric",
		year: "numeric",
		...(timeZone ? { timeZone } : {}),
	});
}

/** The day label of an instant, like "Jan 5, 2025" in en-US. */
export function formatGroupDate(instant: Date | string, options: DateGrouperOptions = {}): string {
	const date = typeof instant === "string" ? new Date(instant) : instant;
	if (Number.isNaN(date.getTime())) return options.unknownLabel ?? UNKNOWN_DATE_LABEL;
	return createDayFormatter(options).format(date);
}

function isNewestFirst(dates: readonly ReadDate[]): boolean {
	for (let index = 1; index < dates.length; index++) {
		const previous = dates[index - 1];
		const current = dates[index];
		if (previous && current && current.time > previous.time) return false;
	}
	return true;
}

/**
 * Returns a function that groups items by their creation day, newest day first and newest item
 * first within a day. It remembers every timestamp it has read, because a history re-groups all
 * its loaded items each time a page arrives and formatting dates is the costly part.
 */
export function createDateGrouper(options: DateGrouperOptions = {}) {
	const formatter = createDayFormatter(options);
	const unknownLabel = options.unknownLabel ?? UNKNOWN_DATE_LABEL;
	const known = new Map<string, ReadDate>();

	const readDate = (createdAt: string): ReadDate => {
		const cached = known.get(createdAt);
		if (cached) return cached;
		const time = new Date(createdAt).getTime();
		const read = Number.isNaN(time)
			? { time: Number.NEGATIVE_INFINITY, label: unknownLabel }
			: { time, label: formatter.format(time) };
		known.set(createdAt, read);
		return read;
	};

	return function groupByCreationDate<Item extends DatedItem>(
		items: readonly Item[],
	): DateGroup<Item>[] {
		const dates = items.map((item) => readDate(item.created_at));
		let order = items.map((_, index) => index);
		// The server already answers newest first; sorting is only for input that is not.
		if (!isNewestFirst(dates)) {
			order = order.sort(
				(left, right) =>
					(dates[right]?.time ?? Number.NEGATIVE_INFINITY) -
						(dates[left]?.time ?? Number.NEGATIVE_INFINITY) || left - right,
			);
		}
		const groups: DateGroup<Item>[] = [];
		const byLabel = new Map<string, DateGroup<Item>>();
		for (const index of order) {
			const item = items[index];
			const date = dates[index];
			if (!item || !date) continue;
			let group = byLabel.get(date.label);
			if (!group) {
				group = { key: date.label, label: date.label, items: [] };
				byLabel.set(date.label, group);
				groups.push(group);
			}
			group.items.push(item);
		}
		return groups;
	};
}

/** Groups items by creation day, newest first; see createDateGrouper for repeated use. */
export function groupByCreationDate<Item extends DatedItem>(
	items: readonly Item[],
	options: DateGrouperOptions = {},
): DateGroup<Item>[] {
	return createDateGrouper(options)(items);
}

const zoneClocks = new Map<string, Intl.DateTimeFormat>();

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
function zoneOffsetMs(instant: Date, timeZone: string): number {
	let clock = zoneClocks.get(timeZone);
	if (!clock) {
		clock = new Intl.DateTimeFormat("en-US", {
			timeZone,
			hourCycle: "h23",
			year: "numeric",
			month: "numeric",
			day: "numeric",
			hour: "numeric",
			minute: "numeric",
			second: "numeric",
		});
		if (zoneClocks.size >= 100) zoneClocks.clear();
		zoneClocks.set(timeZone, clock);
	}
	const parts = clock.formatToParts(instant);
	const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value ?? 0);
	const wall = Date.UTC(
		part("year"),
		part("month") - 1,
		part("day"),
		part("hour"),
		part("minute"),
		part("second"),
	);
	return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * Midnight at the start of a calendar day (`YYYY-MM-DD`) in `timeZone`, as an instant; with
 * `dayAfter`, the midnight that ends it. The history's `from` and `to` filters are such days.
 */
export function startOfDateIn(date: string, timeZone: string, dayAfter = false): Date {
	const [year = 1970, month = 1, day = 1] = date.split("-").map(Number);
	const wallMidnight = Date.UTC(year, month - 1, day + (dayAfter ? 1 : 0));
	let instant = wallMidnight;
	// Twice: the offset at the first guess may differ from the offset at midnight itself (DST).
	for (let pass = 0; pass < 2; pass++) {
		instant = wallMidnight - zoneOffsetMs(new Date(instant), timeZone);
	}
	return new Date(instant);
}
