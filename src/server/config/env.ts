import { z } from "zod";
import { SHARING_MODES } from "../../shared/history/sharing";
import { DEFAULT_IMAGE_DOWNLOAD_MAX_BYTES } from "../../shared/image-input/image-types";
import { DEFAULT_POOL_MAX } from "../db/database";
import {
	findMissingVariable,
	PROVIDER_ENV_SHAPE,
	PROVIDER_NAMES,
} from "../providers/registry/provider-registry";
import { optionalString } from "../providers/shared/config-fields";

const GOOGLE_DISCOVERY_URL = "https://accounts.google.com/.well-known/openid-configuration";

const booleanFlag = z
	.enum(["true", "false", "1", "0", ""])
	.optional()
	.transform((value) => value === "true" || value === "1");

const positiveInt = (fallback: number) =>
	z.coerce.number().int().positive().optional().default(fallback);

/**
 * Every environment variable the server reads. Only `main.ts` calls `parseEnv`; everything else is
 * handed the parsed result.
 */
export const EnvSchema = z
	.object({
		NODE_ENV: z.enum(["development", "production", "test"]).optional().default("production"),
		PORT: z.coerce.number().int().min(0).max(65_535).optional().default(3000),
		HOST: z.string().trim().min(1).optional().default("0.0.0.0"),
		BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
		DATA_DIR: z.string().trim().min(1).optional().default("./data"),
		DATABASE_URL: optionalString.pipe(
			z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" }).optional(),
		),
		DATABASE_POOL_MAX: z.coerce
			.number()
			.int()
			.min(2, "must be at least 2")
			.max(1000)
			.optional()
			.default(DEFAULT_POOL_MAX),
		EMBEDDED_DATABASE_OPTIMIZE: booleanFlag,
		BETTER_AUTH_SECRET: optionalString.pipe(
			z.string().min(32, "must be at least 32 characters").optional(),
		),
		ADMIN_EMAIL: optionalString.pipe(z.email().optional()),
		TRUSTED_ORIGINS: optionalString,
		GOOGLE_CLIENT_ID: optionalString,
		GOOGLE_CLIENT_SECRET: optionalString,
		GOOGLE_DISCOVERY_URL: z.url().optional().default(GOOGLE_DISCOVERY_URL),
		AUTH_RATE_LIMIT_ENABLED: z
			.enum(["true", "false", "1", "0"])
			.optional()
			.transform((value) => value === undefined || value === "true" || value === "1"),
		TRUST_PROXY: booleanFlag,
		REQUIRE_EMAIL_VERIFICATION: booleanFlag,
		SMTP_URL: optionalString.pipe(
			z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
		),
		MAIL_FROM: optionalString.pipe(
			z
				.string()
				.regex(
					/^([^<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
					"must be an address or Name <address>, e.g. Atelier <atelier@example.com>",
				)
				.optional(),
		),
		/** A JSON file of the models people may choose; without it, the one IMAGE_PROVIDER names. */
		MODELS_FILE: optionalString,
		/** A JSON file of the operator's prompt styles, offered to everyone; without it, none. */
		STYLES_FILE: optionalString,
		IMAGE_PROVIDER: z.enum(PROVIDER_NAMES).optional().default("local"),
		// Each provider's own variables, from its folder (providers/registry/provider-registry.ts).
		...PROVIDER_ENV_SHAPE,
		MAX_ACTIVE_GENERATIONS_PER_USER: positiveInt(3),
		MAX_BATCH_GENERATIONS: z.coerce.number().int().min(1).max(100).optional().default(16),
		API_TOKEN_RATE_LIMIT_PER_MINUTE: positiveInt(60),
		DAILY_GENERATIONS_PER_USER: z.coerce.number().int().min(0).optional().default(0),
		TRASH_DAYS: z.coerce.number().int().min(0).max(3650).optional().default(30),
		GENERATION_CONCURRENCY: positiveInt(4),
		GENERATION_TIMEOUT_MS: positiveInt(300_000),
		IMAGE_DOWNLOAD_MAX_BYTES: positiveInt(DEFAULT_IMAGE_DOWNLOAD_MAX_BYTES),
		STORAGE: z.enum(["local", "s3"]).optional().default("local"),
		S3_BUCKET: optionalString,
		S3_REGION: z.string().trim().min(1).optional().default("us-east-1"),
		S3_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
		S3_ACCESS_KEY_ID: optionalString,
		S3_SECRET_ACCESS_KEY: optionalString,
		S3_FORCE_PATH_STYLE: booleanFlag,
		S3_PREFIX: z
			.string()
			.trim()
			.regex(
				/^([a-z0-9][a-z0-9._-]*\/)*$/i,
				"must be empty or folder names ending in /, e.g. atelier/",
			)
			.optional()
			.default(""),
		LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).optional().default("info"),
		SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
		/** After SIGTERM, how long /api/ready answers 503 before the port closes (a load balancer's notice). */
		READY_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).optional().default(2_000),
		/**
		 * Lets webhooks reach loopback, private, link-local and metadata addresses (and plain http
		 * to them): for tests and receivers on the operator's own network. Off, they are refused.
		 */
		WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag,
		/** The waits between a webhook's attempts, in seconds; unset, the Standard Webhooks schedule. */
		WEBHOOK_RETRY_DELAYS_SECONDS: optionalString.pipe(
			z
				.string()
				.regex(
					/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?){0,19}\s*$/,
					"must be up to 20 waits in seconds separated by commas, such as 5,300,1800",
				)
				.transform((text) => text.split(",").map((part) => Math.round(Number(part) * 1000)))
				.optional(),
		),
		/** Web Push: word to a person's devices when a generation ends, with the page closed. */
		WEB_PUSH: z.enum(["on", "off"]).optional().default("on"),
		/** The VAPID key pair (base64url); unset, derived from the server's secret. Set both. */
		VAPID_PUBLIC_KEY: optionalString.pipe(
			z
				.string()
				.regex(/^B[A-Za-z0-9_-]{86}$/, "must be an uncompressed P-256 public key in base64url")
				.optional(),
		),
		VAPID_PRIVATE_KEY: optionalString.pipe(
			z
				.string()
				.regex(/^[A-Za-z0-9_-]{43}$/, "must be a 32-byte P-256 private key in base64url")
				.optional(),
		),
		/** Who push services may contact about our messages: a mailto: or https: URL. */
		VAPID_SUBJECT: optionalString.pipe(
			z
				.string()
				.regex(/^(mailto:[^\s]+|https:\/\/[^\s]+)$/, "must be a mailto: or https: URL")
				.optional(),
		),
		/** Shared links (decision 036): off, for people signed in to this server, or for anyone. */
		SHARING: z.enum(SHARING_MODES).optional().default("public"),
		/** The longest a shared link may live, in days; unset, a link may also never expire. */
		SHARE_MAX_DAYS: z.coerce.number().int().min(1).max(3650).optional(),
		/** Words (one a line) or /patterns/ a prompt may not hold, to generate or to share. */
		PROMPT_BLOCKLIST_FILE: optionalString,
		/** `openai`: OpenAI's moderation checks the images of a public link as it is made. */
		SHARE_MODERATION: z.enum(["off", "openai"]).optional().default("off"),
		/** Enhance (decision 039): an OpenAI-compatible chat endpoint; set with its key and model. */
		ENHANCE_BASE_URL: optionalString.pipe(
			z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
		),
		ENHANCE_API_KEY: optionalString,
		ENHANCE_MODEL: optionalString,
		/** The system message Enhance sends; unset, prompts/enhance-prompt.ts's. */
		ENHANCE_INSTRUCTION: optionalString,
		/** Rewrites one person may ask for in an hour. */
		ENHANCE_PER_HOUR: positiveInt(30),
		/** Turns on GET /metrics for a scraper sending it as a bearer token. */
		METRICS_TOKEN: optionalString.pipe(
			z.string().min(16, "must be at least 16 characters").optional(),
		),
	})
	.superRefine((env, context) => {
		if (env.DATABASE_URL && !env.BETTER_AUTH_SECRET) {
			context.addIssue({
				code: "custom",
				path: ["BETTER_AUTH_SECRET"],
				message: "is required when DATABASE_URL is set (production)",
			});
		}
		const missingVariable = findMissingVariable(env);
		if (missingVariable) {
			context.addIssue({
				code: "custom",
				path: [missingVariable],
				message: `is required when IMAGE_PROVIDER is ${env.IMAGE_PROVIDER}`,
			});
		}
		if (env.STORAGE === "s3" && !env.S3_BUCKET) {
			context.addIssue({
				code: "custom",
				path: ["S3_BUCKET"],
				message: "is required when STORAGE is s3",
			});
		}
		if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
			context.addIssue({
				code: "custom",
				path: [env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"],
				message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together",
			});
		}
		if (env.SMTP_URL && !env.MAIL_FROM) {
			context.addIssue({
				code: "custom",
				path: ["MAIL_FROM"],
				message: "is required when SMTP_URL is set (the sender of reset and verification e-mails)",
			});
		}
		if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
			context.addIssue({
				code: "custom",
				path: [env.VAPID_PUBLIC_KEY ? "VAPID_PRIVATE_KEY" : "VAPID_PUBLIC_KEY"],
				message: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together",
			});
		}
		if (env.SHARE_MODERATION === "openai" && !env.OPENAI_API_KEY) {
			context.addIssue({
				code: "custom",
				path: ["OPENAI_API_KEY"],
				message: "is required when SHARE_MODERATION is openai",
			});
		}
		const enhance = [env.ENHANCE_BASE_URL, env.ENHANCE_API_KEY, env.ENHANCE_MODEL];
		if (enhance.some(Boolean) && !enhance.every(Boolean)) {
			const missing = (["ENHANCE_BASE_URL", "ENHANCE_API_KEY", "ENHANCE_MODEL"] as const).filter(
				(name) => !env[name],
			);
			for (const name of missing) {
				context.addIssue({
					code: "custom",
					path: [name],
					message: "ENHANCE_BASE_URL, ENHANCE_API_KEY and ENHANCE_MODEL must be set together",
				});
			}
		}
		if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
			context.addIssue({
				code: "custom",
				path: [env.GOOGLE_CLIENT_ID ? "GOOGLE_CLIENT_SECRET" : "GOOGLE_CLIENT_ID"],
				message: "GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together",
			});
		}
	});

export type Env = z.infer<typeof EnvSchema>;

type EnvResult = { ok: true; env: Env } | { ok: false; problems: string[] };

/** Parses the environment; on failure names every bad variable with its problem. */
export function parseEnv(source: Record<string, string | undefined>): EnvResult {
	// An empty value (as in a copied .env.example) means "not set".
	const present = Object.fromEntries(
		Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""),
	);
	const result = EnvSchema.safeParse(present);
	if (result.success) return { ok: true, env: result.data };
	const problems = result.error.issues.map((issue) => {
		const name = issue.path.join(".") || "environment";
		return `${name}: ${issue.message}`;
	});
	return { ok: false, problems };
}

/** The public origin the server is reached at: BASE_URL, or localhost on PORT. */
export function resolveBaseUrl(env: Pick<Env, "BASE_URL" | "PORT">): string {
	return (env.BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
}
