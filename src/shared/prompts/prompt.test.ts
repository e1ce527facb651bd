import { describe, expect, it, vi } from "vitest";
import { isValidPrompt, PROMPT_MESSAGES, sanitizePrompt, validatePrompt } from "./prompt";

describe("sanitizePrompt", () => {
	it("strips angle brackets and cuts the text to 500 characters", () => {
		expect(sanitizePrompt("a <b>bold</b> cat")).toBe("a bbold/b cat");
		expect(sanitizePrompt("x".repeat(600))).toHaveLength(500);
		expect(sanitizePrompt(`${"<".repeat(10)}${"y".repeat(500)}`)).toBe("y".repeat(500));
	});
});

describe("validatePrompt", () => {
	it("gives each message of the prompt rules", () => {
		expect(validatePrompt(undefined)).toEqual({ ok: false, message: "Prompt is required" });
		expect(validatePrompt(42)).toEqual({ ok: false, message: PROMPT_MESSAGES.required });
		expect(validatePrompt("   ")).toEqual({ ok: false, message: "Prompt cannot be empty" });
		expect(validatePrompt("x".repeat(501))).toEqual({
			ok: false,
			message: "Prompt must be 500 characters or less",
		});
		for (const unsafe of [
			"<script>alert(1)</script>",
			"javascript:alert(1)",
			"a cat onload=alert(1)",
			"data:text/html,hello",
		]) {
			expect(validatePrompt(unsafe)).toEqual({
				ok: false,
				message: "Prompt contains invalid content",
			});
		}
	});

	it("accepts a prompt of up to 500 characters and trims it", () => {
		expect(validatePrompt("  a red fox in the snow  ")).toEqual({
			ok: true,
			prompt: "a red fox in the snow",
		});
		expect(isValidPrompt("x".repeat(500))).toBe(true);
	});
});

describe("the prompt rules' module", () => {
	it("formats no number while it is evaluated: the first page evaluates it, and a first number format loads the locale's data", async () => {
		vi.resetModules();
		const formatNumber = vi.spyOn(Number.prototype, "toLocaleString");
		try {
			const rules = await import("./prompt");
			expect(formatNumber).not.toHaveBeenCalled();
			expect(rules.PROMPT_MESSAGES.tooLong).toBe("Prompt must be 500 characters or less");
			expect(rules.NEGATIVE_PROMPT_MESSAGES.tooLong).toBe(
				"Negative prompt must be 500 characters or less",
			);
		} finally {
			formatNumber.mockRestore();
		}
	});
});
