export const E2E_PORT = 4319;
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
export const E2E_ADMIN_EMAIL = "admin@example.com";
export const FAKE_GOOGLE_PORT = 4320;
export const E2E_PASSWORD = "correct horse battery";
