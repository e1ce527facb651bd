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

	it("wants a bucket for S3 storage and the S3 key id and secret together", () => {
		const result = parseEnv({ STORAGE: "s3", S3_ACCESS_KEY_ID: "key-only", S3_PREFIX: "../up" });
		expect(result.ok).toBe(false);
		if (result.ok) return;
		const names = result.problems.map((problem) => problem.split(":")[0]);
		expect(names).toEqual(
			expect.arrayContaining(["S3_BUCKET", "S3_SECRET_ACCESS_KEY", "S3_PREFIX"]),
		);
		const good = parseEnv({ STORAGE: "s3", S3_BUCKET: "images", S3_PREFIX: "atelier/" });
		expect(good.ok).toBe(true);
	});

	it("sizes the PostgreSQL pool from DATABASE_POOL_MAX, 20 by default", () => {
		const defaults = parseEnv({});
		expect(defaults.ok && defaults.env.DATABASE_POOL_MAX).toBe(20);
		const larger = parseEnv({ DATABASE_POOL_MAX: "40" });
		expect(larger.ok && larger.env.DATABASE_POOL_MAX).toBe(40);
		const bad = parseEnv({ DATABASE_POOL_MAX: "1" });
		expect(bad.ok).toBe(false);
		if (bad.ok) return;
		expect(bad.problems).toEqual(["DATABASE_POOL_MAX: must be at least 2"]);
	});

	it("reads mail settings: an smtp(s) URL, a sender it requires, verification off by default", () => {
		const none = parseEnv({});
		expect(none.ok && none.env.REQUIRE_EMAIL_VERIFICATION).toBe(false);
		expect(none.ok && none.env.SMTP_URL).toBeUndefined();

		const bad = parseEnv({ SMTP_URL: "http://mail.example.com", MAIL_FROM: "no at sign" });
		expect(bad.ok).toBe(false);
		if (bad.ok) return;
		expect(bad.problems.map((problem) => problem.split(":")[0]).sort()).toEqual([
			"MAIL_FROM",
			"SMTP_URL",
		]);

		const missingSender = parseEnv({ SMTP_URL: "smtps://user:pass@mail.example.com:465" });
		expect(missingSender.ok).toBe(false);
		if (missingSender.ok) return;
		expect(missingSender.problems).toEqual([
			"MAIL_FROM: is required when SMTP_URL is set (the sender of reset and verification e-mails)",
		]);

		const good = parseEnv({
			SMTP_URL: "smtps://user:pass@mail.example.com:465",
			MAIL_FROM: "Atelier <atelier@example.com>",
			REQUIRE_EMAIL_VERIFICATION: "true",
		});
		expect(good.ok).toBe(true);
		if (!good.ok) return;
		expect(good.env.REQUIRE_EMAIL_VERIFICATION).toBe(true);
		expect(good.env.MAIL_FROM).toBe("Atelier <atelier@example.com>");
	});

	it("wants the Google client id and secret together", () => {
		const result = parseEnv({ GOOGLE_CLIENT_ID: "id-only" });
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.problems[0]).toMatch(/^GOOGLE_CLIENT_SECRET:/);
	});

	it("wants Enhance's base URL, key and model together, the URL an http(s) one", () => {
		const partial = parseEnv({ ENHANCE_BASE_URL: "https://api.openai.com/v1" });
		expect(partial.ok).toBe(false);
		if (!partial.ok) {
			expect(partial.problems).toEqual([
				"ENHANCE_API_KEY: ENHANCE_BASE_URL, ENHANCE_API_KEY and ENHANCE_MODEL must be set together",
				"ENHANCE_MODEL: ENHANCE_BASE_URL, ENHANCE_API_KEY and ENHANCE_MODEL must be set together",
			]);
		}
		const notUrl = parseEnv({
			ENHANCE_BASE_URL: "api.openai.com",
			ENHANCE_API_KEY: "sk-test",
			ENHANCE_MODEL: "gpt-4.1-mini",
		});
		expect(notUrl.ok).toBe(false);
		if (!notUrl.ok) expect(notUrl.problems[0]).toMatch(/^ENHANCE_BASE_URL:/);
		const whole = parseEnv({
			ENHANCE_BASE_URL: "http://localhost:11434/v1",
			ENHANCE_API_KEY: "ollama",
			ENHANCE_MODEL: "llama3.2",
		});
		expect(whole.ok && whole.env.ENHANCE_PER_HOUR).toBe(30);
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

describe("parseEnv: image providers", () => {
	it.each([
		["http", "IMAGE_API_URL"],
		["comfyui", "COMFYUI_URL"],
		["replicate", "REPLICATE_API_TOKEN"],
		["openai", "OPENAI_API_KEY"],
		["fal", "FAL_KEY"],
	])("refuses to start %s without %s, naming it", (provider, variable) => {
		const result = parseEnv({ IMAGE_PROVIDER: provider });
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.problems).toEqual([
			`${variable}: is required when IMAGE_PROVIDER is ${provider}`,
		]);
	});

	it("starts each provider with its one required variable, on documented defaults", () => {
		const replicate = parseEnv({ IMAGE_PROVIDER: "replicate", REPLICATE_API_TOKEN: "r8_abc" });
		expect(replicate.ok && replicate.env).toMatchObject({
			REPLICATE_MODEL: "black-forest-labs/flux-schnell",
			REPLICATE_BASE_URL: "https://api.replicate.com/v1",
			REPLICATE_IMAGES_PER_PREDICTION: 4,
		});
		const openai = parseEnv({ IMAGE_PROVIDER: "openai", OPENAI_API_KEY: "sk-abc" });
		expect(openai.ok && openai.env).toMatchObject({
			OPENAI_BASE_URL: "https://api.openai.com/v1",
			OPENAI_IMAGE_MODEL: "gpt-image-1",
			OPENAI_IMAGE_QUALITY: "medium",
			OPENAI_IMAGE_SIZES: "auto",
		});
		const fal = parseEnv({ IMAGE_PROVIDER: "fal", FAL_KEY: "id:secret" });
		expect(fal.ok && fal.env).toMatchObject({
			FAL_MODEL: "fal-ai/flux/schnell",
			FAL_QUEUE_URL: "https://queue.fal.run",
			FAL_RATIO_INPUT: "auto",
		});
		const comfyui = parseEnv({ IMAGE_PROVIDER: "comfyui", COMFYUI_URL: "http://127.0.0.1:8188" });
		expect(comfyui.ok && comfyui.env).toMatchObject({
			COMFYUI_PROMPT_INPUT: "6.text",
			COMFYUI_WIDTH_INPUT: "5.width",
			COMFYUI_HEIGHT_INPUT: "5.height",
			COMFYUI_BATCH_INPUT: "5.batch_size",
			COMFYUI_SEED_INPUT: "3.seed",
			COMFYUI_SIZES: "sd15",
		});
	});

	it("reads extra model input as a JSON object", () => {
		const result = parseEnv({ REPLICATE_INPUT_JSON: '{"output_format":"png","go_fast":true}' });
		expect(result.ok && result.env.REPLICATE_INPUT_JSON).toEqual({
			output_format: "png",
			go_fast: true,
		});
	});

	it("names every malformed provider setting", () => {
		const result = parseEnv({
			IMAGE_PROVIDER: "midjourney",
			COMFYUI_URL: "ftp://gpu-box",
			COMFYUI_PROMPT_INPUT: "six",
			COMFYUI_BATCH_INPUT: "batch",
			COMFYUI_AUTH_HEADER: "no colon here",
			COMFYUI_SIZES: "4k",
			REPLICATE_MODEL: "flux schnell",
			REPLICATE_IMAGES_PER_PREDICTION: "5",
			REPLICATE_INPUT_JSON: "[1, 2]",
			OPENAI_IMAGE_QUALITY: "ultra",
			OPENAI_IMAGE_SIZES: "huge",
			FAL_MODEL: "schnell",
			FAL_INPUT_JSON: "{not json",
			FAL_QUEUE_URL: "queue.fal.run",
		});
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.problems.map((problem) => problem.split(":")[0]).sort()).toEqual(
			[
				"IMAGE_PROVIDER",
				"COMFYUI_URL",
				"COMFYUI_PROMPT_INPUT",
				"COMFYUI_BATCH_INPUT",
				"COMFYUI_AUTH_HEADER",
				"COMFYUI_SIZES",
				"REPLICATE_MODEL",
				"REPLICATE_IMAGES_PER_PREDICTION",
				"REPLICATE_INPUT_JSON",
				"OPENAI_IMAGE_QUALITY",
				"OPENAI_IMAGE_SIZES",
				"FAL_MODEL",
				"FAL_INPUT_JSON",
				"FAL_QUEUE_URL",
			].sort(),
		);
		expect(result.problems).toContain(
			"COMFYUI_PROMPT_INPUT: must be <node id>.<input name>, such as 6.text",
		);
	});
});

describe(".env.example", () => {
	it("documents every variable the server reads, with values the server accepts", async () => {
		const text = await readFile(".env.example", "utf8");
		const entries = Object.fromEntries(
			text
				.split("\n")
				.filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
				.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
		);
		const schemaKeys = Object.keys(EnvSchema.shape);
		expect(schemaKeys.length).toBeGreaterThan(10);
		expect(Object.keys(entries).sort()).toEqual(schemaKeys.sort());
		expect(parseEnv(entries).ok).toBe(true);
	});
});

describe("the configuration pages", () => {
	/** The variables named in the first column of a page's tables (`NAME`, or `A`, `B` in one row). */
	async function readTableVariables(file: string): Promise<string[]> {
		const text = await readFile(file, "utf8");
		return text
			.split("\n")
			.filter((line) => /^\| `[A-Z][A-Z0-9_]*`/.test(line))
			.flatMap((line) => (line.split("|")[1] ?? "").match(/[A-Z][A-Z0-9_]*/g) ?? []);
	}

	it("list every variable the server reads, and none it does not", async () => {
		const configuration = await readTableVariables("docs/configuration.md");
		const providers = await readTableVariables("docs/providers.md");
		expect(configuration).toContain("DATABASE_URL");
		expect(providers).toContain("COMFYUI_URL");
		const documented = [...new Set([...configuration, ...providers])].sort();
		expect(documented).toEqual(Object.keys(EnvSchema.shape).sort());
	});
});
