import type { GenerationRunSettings } from "../generations/run/run-generation";
import { DEFAULT_RUN_SETTINGS, DEFAULT_WEBHOOK_SETTINGS, type ServerSettings } from "../server";

/** Settings a test may change; `run` takes any subset of the worker's settings. */
export type TestSettingsOverrides = Omit<Partial<ServerSettings>, "run"> & {
	run?: Partial<GenerationRunSettings>;
};

export const TEST_BASE_URL = "http://localhost:3000";
export const TEST_ADMIN_EMAIL = "admin@example.com";

export function createTestSettings(overrides: TestSettingsOverrides = {}): ServerSettings {
	return {
		baseUrl: TEST_BASE_URL,
		secret: "test-secret-that-is-at-least-32-characters-long",
		adminEmail: TEST_ADMIN_EMAIL,
		trustedOrigins: [],
		google: undefined,
		isRateLimitEnabled: false,
		trustProxy: true,
		mail: { smtpUrl: undefined, from: "Atelier <atelier@example.com>" },
		requireEmailVerification: false,
		limits: { maxActivePerUser: 3, dailyLimitPerUser: 0 },
		concurrency: 2,
		apiTokenRequestsPerMinute: 60,
		webhooks: DEFAULT_WEBHOOK_SETTINGS,
		...overrides,
		run: { ...DEFAULT_RUN_SETTINGS, providerPollMs: 20, retryDelayMs: 50, ...overrides.run },
	};
}
