import { describe, expect, it } from "vitest";
import { ERRORS } from "../core/errors";
import {
	formatGenerationRequestError,
	formatPollingHttpError,
	formatStartError,
	readPollOutcome,
} from "./generation-answers";

describe("formatPollingHttpError", () => {
	it("says Polling HTTP and the status", () => {
		expect(formatPollingHttpError(503)).toBe("Polling HTTP 503");
	});
});

describe("formatStartError", () => {
	it("prefers the server's message, then its code, then HTTP and the status", () => {
		expect(formatStartError({ code: "QUOTA_EXCEEDED", message: "Too many" }, 429)).toBe("Too many");
		expect(formatStartError({ code: "QUOTA_EXCEEDED", message: " " }, 429)).toBe("QUOTA_EXCEEDED");
		expect(formatStartError({ code: "QUOTA_EXCEEDED" }, 429)).toBe("QUOTA_EXCEEDED");
		expect(formatStartError("The service is down", 503)).toBe("The service is down");
		expect(formatStartError(undefined, 502)).toBe("HTTP 502");
		expect(formatStartError({}, 500)).toBe("HTTP 500");
		expect(formatStartError("", 500)).toBe("HTTP 500");
	});
});

describe("formatGenerationRequestError", () => {
	const refused = {
		kind: "server",
		code: "QUOTA_EXCEEDED",
		message: "Too many",
		status: 429,
	} as const;

	it("says a start failed with the server's message, its code, or HTTP and the status", () => {
		expect(formatGenerationRequestError("start", refused)).toBe("Too many");
		expect(formatGenerationRequestError("start", { ...refused, message: "" })).toBe(
			"QUOTA_EXCEEDED",
		);
		expect(
			formatGenerationRequestError("start", {
				kind: "status",
				code: "API_ERROR",
				message: ERRORS.API_ERROR.message,
				status: 502,
			}),
		).toBe("HTTP 502");
		expect(
			formatGenerationRequestError("start", {
				kind: "answer",
				code: "API_ERROR",
				message: ERRORS.API_ERROR.message,
				status: 200,
			}),
		).toBe("HTTP 200");
	});

	it("says a poll failed with Polling HTTP and the status, or the catalogue's API error", () => {
		expect(formatGenerationRequestError("poll", refused)).toBe("Polling HTTP 429");
		expect(
			formatGenerationRequestError("poll", {
				kind: "status",
				code: "API_ERROR",
				message: ERRORS.API_ERROR.message,
				status: 503,
			}),
		).toBe("Polling HTTP 503");
		expect(
			formatGenerationRequestError("poll", {
				kind: "answer",
				code: "API_ERROR",
				message: ERRORS.API_ERROR.message,
				status: 200,
			}),
		).toBe(ERRORS.API_ERROR.message);
	});

	it("gives the catalogue's network message when nothing answered", () => {
		const unanswered = {
			kind: "network",
			code: "NETWORK_ERROR",
			message: ERRORS.NETWORK_ERROR.message,
			status: 0,
		} as const;
		expect(formatGenerationRequestError("start", unanswered)).toBe(ERRORS.NETWORK_ERROR.message);
		expect(formatGenerationRequestError("poll", unanswered)).toBe(ERRORS.NETWORK_ERROR.message);
	});
});

describe("readPollOutcome", () => {
	it("is done when the status is completed with a results array", () => {
		expect(readPollOutcome({ status: "completed", results: ["/a.png", "/b.png"] })).toEqual({
			kind: "completed",
			imageUrls: ["/a.png", "/b.png"],
		});
	});

	it("reads results given as objects with url or src", () => {
		expect(
			readPollOutcome({
				status: "completed",
				results: [{ url: "/a.png" }, { src: "/b.png" }, "/c.png", { url: null }],
			}),
		).toEqual({ kind: "completed", imageUrls: ["/a.png", "/b.png", "/c.png"] });
	});

	it("keeps waiting when completed comes without a results array", () => {
		expect(readPollOutcome({ status: "completed" })).toEqual({ kind: "pending", message: null });
		expect(readPollOutcome({ status: "completed", results: null })).toEqual({
			kind: "pending",
			message: null,
		});
	});

	it("fails with the server's message on failed or error, else Generation failed", () => {
		expect(readPollOutcome({ status: "failed", message: "The provider refused" })).toEqual({
			kind: "failed",
			message: "The provider refused",
		});
		expect(readPollOutcome({ status: "error", message: "Boom" })).toEqual({
			kind: "failed",
			message: "Boom",
		});
		expect(readPollOutcome({ status: "failed", message: null })).toEqual({
			kind: "failed",
			message: "Generation failed",
		});
		expect(readPollOutcome({ status: "error" })).toEqual({
			kind: "failed",
			message: "Generation failed",
		});
	});

	it("waits and polls again on anything else, passing on what the server says meanwhile", () => {
		for (const status of ["queued", "running", "processing", ""]) {
			expect(readPollOutcome({ status, results: [] })).toEqual({ kind: "pending", message: null });
		}
		expect(
			readPollOutcome({ status: "running", results: [], message: "The image service is busy" }),
		).toEqual({ kind: "pending", message: "The image service is busy" });
	});
});
