import { fileURLToPath } from "node:url";
import { startFakeGoogle } from "../../../src/server/testing/fakes/google";
import { startSmtpInbox } from "../../../src/server/testing/smtp-inbox";
import { claimAdministrator } from "./administrator";
import { removeDataDir, startAppServer } from "./app-server";
import { E2E_ADMIN_EMAIL, E2E_PORT, FAKE_GOOGLE_PORT, MAIL_INBOX_PORT } from "./constants";

/**
 * One server for the journeys, configured with a local OpenID Connect server standing in for
 * Google and a real SMTP server on 127.0.0.1 that keeps the mail it is sent.
 */
export default async function globalSetup() {
	const google = await startFakeGoogle(FAKE_GOOGLE_PORT);
	const inbox = await startSmtpInbox();
	await inbox.serveOverHttp(MAIL_INBOX_PORT);
	const server = await startAppServer({
		port: E2E_PORT,
		env: {
			ADMIN_EMAIL: E2E_ADMIN_EMAIL,
			GOOGLE_CLIENT_ID: "atelier-e2e-client",
			GOOGLE_CLIENT_SECRET: "atelier-e2e-secret",
			GOOGLE_DISCOVERY_URL: google.discoveryUrl,
			// The journeys sign in many times from one address; rate limiting has its own tests.
			AUTH_RATE_LIMIT_ENABLED: "false",
			SMTP_URL: inbox.smtpUrl,
			MAIL_FROM: "Atelier <atelier@example.com>",
			// Two models of the offline engine, so the journeys can choose; the default is the one
			// every other journey uses.
			MODELS_FILE: fileURLToPath(new URL("./models.json", import.meta.url)),
			// One operator style, for the prompt tools' journey.
			STYLES_FILE: fileURLToPath(new URL("./styles.json", import.meta.url)),
			// The webhook journey's receiver listens on 127.0.0.1.
			WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
		},
	});
	// The administrator's powers wait for the claim, which ends every session made before it: once,
	// before any journey signs in as them.
	await claimAdministrator();
	return async () => {
		await server.stop();
		await google.stop();
		await inbox.stop();
		await removeDataDir(server.dataDir);
	};
}
