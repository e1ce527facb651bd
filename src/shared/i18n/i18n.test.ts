import { execFileSync } from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import { ERRORS, type ErrorCode, errorMessage } from "../core/errors";
import { activeGenerationsLabel, errorNotFound, mailResetSubject } from "./messages";
import deJson from "./messages/de.json";
import en from "./messages/en.json";
import { negotiateLanguage, pickLanguage } from "./negotiate-language";
import { registerCatalogue, translate } from "./runtime";
import de from "./translations/de";

registerCatalogue("de", de);

describe("which language", () => {
	it.each([
		[undefined, "en"],
		["", "en"],
		["de", "de"],
		["de-AT,de;q=0.9,en;q=0.8", "de"],
		["fr-FR,fr;q=0.9", "en"],
		["fr-FR,de;q=0.5,en;q=0.4", "de"],
		["en;q=0.5,de;q=0.9", "de"],
		["de;q=0,en", "en"],
		["*", "en"],
	])("Accept-Language %j reads %s", (header, expected) => {
		expect(negotiateLanguage(header)).toBe(expected);
	});

	it("takes the account's setting, then the browser's cookie, then Accept-Language", () => {
		expect(pickLanguage({ setting: "en", cookie: "de", acceptLanguage: "de" })).toBe("en");
		expect(pickLanguage({ setting: "browser", cookie: "de", acceptLanguage: "en" })).toBe("de");
		expect(pickLanguage({ setting: "browser", cookie: "xx", acceptLanguage: "de" })).toBe("de");
		expect(pickLanguage({})).toBe("en");
	});
});

describe("messages", () => {
	it("are English unless another language is asked for", () => {
		expect(errorNotFound()).toBe("Not found.");
		expect(errorNotFound({ language: "de" })).toBe("Nicht gefunden.");
	});

	it("fall back to English where a catalogue lacks one", () => {
		expect(translate("Only in English", undefined, { language: "de" })).toBe("Only in English");
	});

	it("take the plural form of the language's rules, the number in its form", () => {
		expect(activeGenerationsLabel({ count: 1 })).toBe("1 running");
		expect(activeGenerationsLabel({ count: 1 }, { language: "de" })).toBe("1 läuft");
		expect(activeGenerationsLabel({ count: 3 }, { language: "de" })).toBe("3 laufen");
		expect(activeGenerationsLabel({ count: 1204 })).toBe("1,204 running");
		expect(activeGenerationsLabel({ count: 1204 }, { language: "de" })).toBe("1.204 laufen");
	});

	it("write a whole number under 1,000 without Intl, whose first use loads the locale's number data", () => {
		const formatNumber = vi.spyOn(Number.prototype, "toLocaleString");
		try {
			expect(translate("Up to {max} images", { max: 4 })).toBe("Up to 4 images");
			expect(translate("{max} characters", { max: 500 }, { language: "de" })).toBe(
				"500 characters",
			);
			expect(formatNumber).not.toHaveBeenCalled();
			expect(translate("{count} left", { count: 1000 })).toBe("1,000 left");
			expect(translate("{count} left", { count: 2.5 })).toBe("2.5 left");
			expect(translate("{count} left", { count: -3 })).toBe("-3 left");
		} finally {
			formatNumber.mockRestore();
		}
	});

	it("put their parameters in", () => {
		expect(mailResetSubject({ product: "Atelier" }, { language: "de" })).toBe(
			"Setze dein Atelier-Passwort zurück",
		);
	});

	it("hold the error catalogue's English texts, which stay SPEC.md's", () => {
		for (const code of Object.keys(ERRORS) as ErrorCode[]) {
			expect(errorMessage(code)).toBe(ERRORS[code].message);
		}
		expect(ERRORS.NETWORK_ERROR.message).toBe(
			"Network connection failed. Please check your internet connection and try again.",
		);
		expect(errorMessage("RATE_LIMITED", { language: "de" })).toBe(
			"Zu viele Anfragen. Bitte versuche es später erneut.",
		);
	});
});

describe("the catalogues", () => {
	it("translate every English message into German", () => {
		expect(Object.keys(deJson).sort()).toEqual(Object.keys(en).sort());
	});

	it("compile into messages.ts as it is checked in, each catalogue matching English", () => {
		expect(() =>
			execFileSync("node", ["scripts/compile-messages.mjs", "--check"], { stdio: "pipe" }),
		).not.toThrow();
	});
});
