// How the administrator's screens write their figures: the People table and the usage report's
// tables and charts say the same amount the same way.

const COUNT_FORMAT = new Intl.NumberFormat("en-US");
const DECIMAL_FORMAT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
const MONEY_FORMAT = new Intl.NumberFormat("en-US", {
	style: "currency",
	currency: "USD",
	minimumFractionDigits: 2,
	maximumFractionDigits: 2,
});
const DATE_FORMAT = new Intl.DateTimeFormat("en-US", {
	year: "numeric",
	month: "short",
	day: "numeric",
});
const BYTE_UNITS = ["bytes", "kB", "MB", "GB", "TB"] as const;

export function formatCount(value: number): string {
	return COUNT_FORMAT.format(value);
}

/** One decimal at most, as seconds and sizes are shown. */
export function formatDecimal(value: number): string {
	return DECIMAL_FORMAT.format(value);
}

/** US dollars to the cent; a sum under a cent but above nothing says so rather than $0.00. */
export function formatMoney(value: number): string {
	if (value > 0 && value < 0.005) return "< $0.01";
	return MONEY_FORMAT.format(value);
}

/** Bytes in decimal units, like "1.5 MB": the largest unit that keeps the figure at 1 or more. */
export function formatBytes(value: number): string {
	let amount = value;
	let unit = 0;
	while (amount >= 1000 && unit < BYTE_UNITS.length - 1) {
		amount /= 1000;
		unit += 1;
	}
	return unit === 0
		? `${formatCount(amount)} bytes`
		: `${formatDecimal(amount)} ${BYTE_UNITS[unit]}`;
}

export function formatDay(timestamp: string | null): string {
	if (!timestamp) return "Never";
	const date = new Date(timestamp);
	return Number.isNaN(date.getTime()) ? "—" : DATE_FORMAT.format(date);
}
