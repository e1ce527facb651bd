import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { ERRORS } from "../../../shared/core/errors";
import { mswServer } from "../../testing/msw-server";
import { ApiError, requestApi } from "./api-client";

const PublicConfigSchema = z.object({ googleEnabled: z.boolean(), imageProvider: z.string() });

describe("requestApi", () => {
	it("returns the parsed answer", async () => {
		mswServer.use(
			http.get("*/api/config", () =>
				HttpResponse.json({ googleEnabled: true, imageProvider: "local", extra: 1 }),
			),
		);

		await expect(requestApi("/api/config", PublicConfigSchema)).resolves.toEqual({
			googleEnabled: true,
			imageProvider: "local",
		});
	});

	it("throws the server's code and message from the error envelope", async () => {
		mswServer.use(
			http.post("*/api/generations", () =>
				HttpResponse.json(
					{
						success: false,
						error: { code: "QUOTA_EXCEEDED", message: ERRORS.QUOTA_EXCEEDED.message },
					},
					{ status: 429 },
				),
			),
		);

		const failure = requestApi("/api/generations", PublicConfigSchema, {
			method: "POST",
			body: JSON.stringify({ prompt: "a cat" }),
		});

		await expect(failure).rejects.toBeInstanceOf(ApiError);
		await expect(failure).rejects.toMatchObject({
			kind: "server",
			code: "QUOTA_EXCEEDED",
			message: ERRORS.QUOTA_EXCEEDED.message,
			status: 429,
		});
	});

	it("still reads the message of an envelope that lacks the success flag", async () => {
		mswServer.use(
			http.get("*/api/config", () =>
				HttpResponse.json(
					{ error: { code: "RATE_LIMITED", message: ERRORS.RATE_LIMITED.message } },
					{ status: 429 },
				),
			),
		);

		await expect(requestApi("/api/config", PublicConfigSchema)).rejects.toMatchObject({
			code: "RATE_LIMITED",
			message: ERRORS.RATE_LIMITED.message,
		});
	});

	it("sends JSON with a body", async () => {
		let contentType: string | null = null;
		mswServer.use(
			http.post("*/api/echo", ({ request }) => {
				contentType = request.headers.get("content-type");
				return HttpResponse.json({ googleEnabled: false, imageProvider: "local" });
			}),
		);

		await requestApi("/api/echo", PublicConfigSchema, { method: "POST", body: "{}" });

		expect(contentType).toBe("application/json");
	});

	it("falls back to the catalogue when the server sends no envelope", async () => {
		mswServer.use(http.get("*/api/config", () => new HttpResponse("Bad gateway", { status: 502 })));

		await expect(requestApi("/api/config", PublicConfigSchema)).rejects.toMatchObject({
			kind: "status",
			code: "API_ERROR",
			message: ERRORS.API_ERROR.message,
			status: 502,
		});
	});

	it("reports a network failure with the catalogue's network message", async () => {
		mswServer.use(http.get("*/api/config", () => HttpResponse.error()));

		await expect(requestApi("/api/config", PublicConfigSchema)).rejects.toMatchObject({
			kind: "network",
			code: "NETWORK_ERROR",
			message: ERRORS.NETWORK_ERROR.message,
		});
	});

	it("rejects an answer that does not match the schema", async () => {
		mswServer.use(http.get("*/api/config", () => HttpResponse.json({ googleEnabled: "yes" })));

		await expect(requestApi("/api/config", PublicConfigSchema)).rejects.toMatchObject({
			kind: "answer",
			code: "API_ERROR",
			status: 200,
		});
	});
});
