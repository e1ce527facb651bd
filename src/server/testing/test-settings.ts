import type { ServerSettings } from "../server";

export const TEST_BASE_URL = "http://localhost:3000";
export const TEST_ADMIN_EMAIL = "admin@example.com";

export function createTestSettings(overrides: Partial<ServerSettings> = {}): ServerSettings {
	return {
		baseUrl: TEST_BASE_URL,
		secret: "test-secret-that-is-at-least-32-characters-long",
		adminEmail: TEST_ADMIN_EMAIL,
		trustedOrigins: [],
		google: undefined,
		isRateLimitEnabled: false,
		trustProxy: true,
		imageProvider: "local",
		...overrides,
	};
}
