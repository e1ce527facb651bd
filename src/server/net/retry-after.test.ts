import { describe, expect, it } from "vitest";
import { parseRetryAfter, readRetryAfterMs } from "./retry-after";

describe("parseRetryAfter", () => {
	const now = Date.parse("2025-03-01T12:00:00Z");

	it("reads delay-seconds", () => {
		expect(parseRetryAfter("7", now)).toBe(7_000);
		expect(parseRetryAfter(" 0 ", now)).toBe(0);
	});

	it("reads an HTTP date, never below zero", () => {
		expect(parseRetryAfter("Sat, 01 Mar 2025 12:00:30 GMT", now)).toBe(30_000);
		expect(parseRetryAfter("Sat, 01 Mar 2025 11:00:00 GMT", now)).toBe(0);
	});

	it("ignores a missing or unreadable header", () => {
		expect(parseRetryAfter(null, now)).toBeUndefined();
		expect(parseRetryAfter("soon", now)).toBeUndefined();
		expect(parseRetryAfter("-5", now)).toBeUndefined();
	});
});

describe("readRetryAfterMs", () => {
	it("prefers retry-after-ms, else reads Retry-After", () => {
		expect(readRetryAfterMs(new Headers({ "retry-after-ms": "1500.2", "retry-after": "9" }))).toBe(
			1_501,
		);
		expect(readRetryAfterMs(new Headers({ "retry-after-ms": "soon", "retry-after": "9" }))).toBe(
			9_000,
		);
		expect(readRetryAfterMs(new Headers())).toBeUndefined();
	});
});
