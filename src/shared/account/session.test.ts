import { describe, expect, it } from "vitest";
import { emailLocalPart, isAdminEmail } from "./session";

describe("isAdminEmail", () => {
	it("matches the configured e-mail trimmed and lowercased on both sides", () => {
		expect(isAdminEmail("Admin@Example.com", " admin@example.COM ")).toBe(true);
		expect(isAdminEmail(" admin@example.com ", "admin@example.com")).toBe(true);
	});

	it("is false for anyone else, or when no administrator is configured", () => {
		expect(isAdminEmail("someone@example.com", "admin@example.com")).toBe(false);
		expect(isAdminEmail("admin@example.com.evil", "admin@example.com")).toBe(false);
		expect(isAdminEmail("admin@example.com", undefined)).toBe(false);
		expect(isAdminEmail("admin@example.com", "   ")).toBe(false);
		expect(isAdminEmail(undefined, "admin@example.com")).toBe(false);
	});
});

describe("emailLocalPart", () => {
	it("is the part before the at-sign", () => {
		expect(emailLocalPart("jane.doe@example.com")).toBe("jane.doe");
		expect(emailLocalPart("nobody")).toBe("nobody");
	});
});
