// How the app writes its figures: counts, sizes and prices read the same on every screen.
import { DATE_LOCALE } from "../../shared/constants";

const COUNT_FORMAT = new Intl.NumberFormat(DATE_LOCALE);
const DECIMAL_FORMAT = new Intl.NumberFormat(DATE_LOCALE, { maximumFractionDigits: 1 });
const DOLLARS = { style: "currency", currency: "USD", minimumFractionDigits: 2 } as const;
const MONEY_FORMAT = new Intl.NumberFormat(DATE_LOCALE, { ...DOLLARS, maximumFractionDigits: 2 });
const PRICE_FORMAT = new Intl.NumberFormat(DATE_LOCALE, { ...DOLLARS, maximumFractionDigits: 4 });
const BYTE_UNITS = ["bytes", "kB", "MB", "GB", "TB"] as const;

/** A count in en-US form, like "1,204". */
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

/** A price per image in US dollars, to a hundredth of a cent where it has one: "$0.0035". */
export function formatPrice(value: number): string {
	return PRICE_FORMAT.format(value);
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
