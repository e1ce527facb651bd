// How the app writes its figures: counts, sizes and prices read the same on every screen, in the
// page's language (en-US form in English; docs/decisions/037-languages.md).

import { INTL_LOCALES } from "../../../shared/i18n/languages";
import { numberBytes } from "../../../shared/i18n/messages";
import { readActiveLanguage } from "../../../shared/i18n/runtime";

const formats = new Map<string, Intl.NumberFormat>();

/** A formatter made once a language: making one costs far more than using it. */
function readFormat(name: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
	const locale = INTL_LOCALES[readActiveLanguage()];
	const key = `${name} ${locale}`;
	let format = formats.get(key);
	if (!format) {
		format = new Intl.NumberFormat(locale, options);
		formats.set(key, format);
	}
	return format;
}

const COUNT_FORMAT: Intl.NumberFormatOptions = {};
const DECIMAL_FORMAT: Intl.NumberFormatOptions = { maximumFractionDigits: 1 };
const DOLLARS = { style: "currency", currency: "USD", minimumFractionDigits: 2 } as const;
const MONEY_FORMAT: Intl.NumberFormatOptions = { ...DOLLARS, maximumFractionDigits: 2 };
const PRICE_FORMAT: Intl.NumberFormatOptions = { ...DOLLARS, maximumFractionDigits: 4 };
// Decimal units, written alike in every language Atelier has; below a kilobyte, the catalogue's.
const BYTE_UNITS = ["", "kB", "MB", "GB", "TB"] as const;

/** A count in the page's language, like "1,204" (German "1.204"). */
export function formatCount(value: number): string {
	return readFormat("COUNT_FORMAT", COUNT_FORMAT).format(value);
}

/** One decimal at most, as seconds and sizes are shown. */
export function formatDecimal(value: number): string {
	return readFormat("DECIMAL_FORMAT", DECIMAL_FORMAT).format(value);
}

/** US dollars to the cent; a sum under a cent but above nothing says so rather than $0.00. */
export function formatMoney(value: number): string {
	if (value > 0 && value < 0.005) return `< ${formatMoney(0.01)}`;
	return readFormat("MONEY_FORMAT", MONEY_FORMAT).format(value);
}

/** A price per image in US dollars, to a hundredth of a cent where it has one: "$0.0035". */
export function formatPrice(value: number): string {
	return readFormat("PRICE_FORMAT", PRICE_FORMAT).format(value);
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
		? numberBytes({ count: amount })
		: `${formatDecimal(amount)} ${BYTE_UNITS[unit]}`;
}
