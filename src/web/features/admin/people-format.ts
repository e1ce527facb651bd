// How the People page writes its figures.

const COUNT_FORMAT = new Intl.NumberFormat("en-US");
const SPEND_FORMAT = new Intl.NumberFormat("en-US", {
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
const BYTE_UNITS = ["KB", "MB", "GB", "TB"] as const;

export function formatCount(value: number): string {
	return COUNT_FORMAT.format(value);
}

/** US dollars to the cent; a spend under a cent but above nothing says so rather than $0.00. */
export function formatSpend(value: number): string {
	if (value > 0 && value < 0.005) return "< $0.01";
	return SPEND_FORMAT.format(value);
}

/** Bytes in the largest unit of 1,000 that keeps the figure at 1 or more, one decimal. */
export function formatBytes(value: number): string {
	if (value < 1000) return `${formatCount(value)} B`;
	let amount = value;
	let unit: string = "B";
	for (const next of BYTE_UNITS) {
		if (amount < 1000) break;
		amount /= 1000;
		unit = next;
	}
	return `${amount.toFixed(1)} ${unit}`;
}

export function formatDay(timestamp: string | null): string {
	if (!timestamp) return "Never";
	const date = new Date(timestamp);
	return Number.isNaN(date.getTime()) ? "—" : DATE_FORMAT.format(date);
}
