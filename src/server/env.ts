import { z } from "zod";

const GOOGLE_DISCOVERY_URL = "https://accounts.google.com/.well-known/openid-configuration";

const optionalString = z
	.string()
	.trim()
	.transform((value) => (value === "" ? undefined : value))
	.optional();

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
		IMAGE_PROVIDER: z.enum(["local", "http"]).optional().default("local"),
		LOCAL_ENGINE_DELAY_MS: z.coerce.number().int().min(0).max(60_000).optional().default(3000),
		IMAGE_API_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
		IMAGE_API_KEY: optionalString,
		MAX_ACTIVE_GENERATIONS_PER_USER: positiveInt(3),
		DAILY_GENERATIONS_PER_USER: z.coerce.number().int().min(0).optional().default(0),
		GENERATION_CONCURRENCY: positiveInt(4),
		GENERATION_TIMEOUT_MS: positiveInt(300_000),
		IMAGE_DOWNLOAD_MAX_BYTES: positiveInt(25 * 1024 * 1024),
		LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).optional().default("info"),
		SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
	})
	.superRefine((env, context) => {
		if (env.DATABASE_URL && !env.BETTER_AUTH_SECRET) {
			context.addIssue({
				code: "custom",
				path: ["BETTER_AUTH_SECRET"],
				message: "is required when DATABASE_URL is set (production)",
			});
		}
		if (env.IMAGE_PROVIDER === "http" && !env.IMAGE_API_URL) {
			context.addIssue({
				code: "custom",
				path: ["IMAGE_API_URL"],
				message: "is required when IMAGE_PROVIDER is http",
			});
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

export type EnvResult = { ok: true; env: Env } | { ok: false; problems: string[] };

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
