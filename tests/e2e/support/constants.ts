// Ports can be moved (E2E_PORT) so that two runs on one machine do not collide.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4319);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
export const E2E_ADMIN_EMAIL = "admin@example.com";
/** The password the global setup chooses when it claims the administrator's account. */
export const E2E_ADMIN_PASSWORD = "admin password";
export const FAKE_GOOGLE_PORT = E2E_PORT + 1;
export const E2E_PASSWORD = "correct horse battery";
/** The SMTP inbox the journeys' server sends mail to serves what it received here. */
export const MAIL_INBOX_PORT = E2E_PORT + 2;
