import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { EnvSchema, parseEnv, resolveBaseUrl } from "./env";

describe("parseEnv", () => {
	it("starts with nothing set: embedded database under ./data on port 3000", () => {
		const result = parseEnv({});
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(result.env.PORT).toBe(3000);
		expect(result.env.DATA_DIR).toBe("./data");
		expect(result.env.DATABASE_URL).toBeUndefined();
		expect(result.env.GOOGLE_DISCOVERY_URL).toBe(
			"https://accounts.google.com/.well-known/openid-configuration",
		);
		expect(resolveBaseUrl(result.env)).toBe("http://localhost:3000");
	});

	it("treats empty values, as in a copied .env.example, as not set", () => {
		const result = parseEnv({ BASE_URL: "", DATABASE_URL: " ", ADMIN_EMAIL: "", PORT: "" });
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(result.env.PORT).toBe(3000);
		expect(result.env.BASE_URL).toBeUndefined();
	});

	it("names every bad variable at once", () => {
		const result = parseEnv({
			PORT: "eighty",
			BASE_URL: "not a url",
			ADMIN_EMAIL: "not-an-email",
			DATABASE_URL: "mysql://db",
		});
		expect(result.ok).toBe(false);
		if (result.ok) return;
		const names = result.problems.map((problem) => problem.split(":")[0]);
		expect(names).toEqual(
			expect.arrayContaining(["PORT", "BASE_URL", "ADMIN_EMAIL", "DATABASE_URL"]),
		);
	});

	it("requires BETTER_AUTH_SECRET in production (with DATABASE_URL)", () => {
		const result = parseEnv({ DATABASE_URL: "postgres://user@db.internal:5432/atelier" });
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.problems).toEqual([
			"BETTER_AUTH_SECRET: is required when DATABASE_URL is set (production)",
		]);
	});

	it("wants the Google client id and secret together", () => {
		const result = parseEnv({ GOOGLE_CLIENT_ID: "id-only" });
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.problems[0]).toMatch(/^GOOGLE_CLIENT_SECRET:/);
	});

	it("trims the administrator e-mail and drops a trailing slash from BASE_URL", () => {
		const result = parseEnv({
			ADMIN_EMAIL: "  boss@example.com ",
			BASE_URL: "https://atelier.example/",
		});
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(result.env.ADMIN_EMAIL).toBe("boss@example.com");
		expect(resolveBaseUrl(result.env)).toBe("https://atelier.example");
	});
});

describe(".env.example", () => {
	it("documents every variable the server reads, with values the server accepts", async () => {
		const text = await readFile(".env.example", "utf8");
		const entries = Object.fromEntries(
			text
				.split("\n")
				.filter((line) => /^[A-Z_]+=/.test(line))
				.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
		);
		const schemaKeys = Object.keys(EnvSchema.shape);
		expect(schemaKeys.length).toBeGreaterThan(10);
		expect(Object.keys(entries).sort()).toEqual(schemaKeys.sort());
		expect(parseEnv(entries).ok).toBe(true);
	});
});
