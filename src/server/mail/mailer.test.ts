import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../logging/logger";
import { type SmtpInbox, startSmtpInbox } from "../testing/smtp-inbox";
import { createMailer } from "./mailer";
import { createPasswordResetMessage, createVerificationMessage } from "./messages";

describe("mail", () => {
	let inbox: SmtpInbox;

	beforeAll(async () => {
		inbox = await startSmtpInbox();
	});
	afterAll(async () => {
		await inbox.stop();
	});

	it("sends through SMTP_URL with its credentials, from MAIL_FROM, in text and HTML", async () => {
		const logs: string[] = [];
		const mailer = createMailer(
			{ smtpUrl: inbox.smtpUrl, from: "Atelier <atelier@example.com>" },
			createLogger("debug", (line) => logs.push(line)),
		);
		const link = "http://localhost:3000/api/auth/reset-password/abc?callbackURL=%2Freset-password";
		await mailer.send(createPasswordResetMessage({ to: "jane@example.com", link, language: "en" }));
		await mailer.close();

		const mail = await inbox.waitForMail("jane@example.com");
		expect(mail.from).toBe("atelier@example.com");
		expect(mail.links).toEqual([link]);
		expect(mail.text).toContain("Atelier");
		expect(mail.html).toContain(
			'href="http://localhost:3000/api/auth/reset-password/abc?callbackURL=%2Freset-password"',
		);
		expect(mail.html).not.toMatch(/<img|<script/i);
		expect(logs.join("\n")).not.toContain("abc");
	});

	it("refuses wrong SMTP credentials, and a background send logs the failure without the link", async () => {
		const logs: string[] = [];
		const wrongUrl = inbox.smtpUrl.replace("inbox-password", "wrong-password");
		const mailer = createMailer(
			{ smtpUrl: wrongUrl, from: "atelier@example.com" },
			createLogger("debug", (line) => logs.push(line)),
		);
		const message = createVerificationMessage({
			to: "joe@example.com",
			link: "http://localhost:3000/api/auth/verify-email?token=secret-token",
			language: "en",
		});
		await expect(mailer.send(message)).rejects.toThrow();
		mailer.sendInBackground(message);
		await mailer.close();
		const failure = logs.map((line) => JSON.parse(line)).find((entry) => entry.level === "error");
		expect(failure).toMatchObject({ message: "sending mail failed", to: "joe@example.com" });
		expect(logs.join("\n")).not.toContain("secret-token");
	});

	it("writes each message with its link to the log when no SMTP server is configured", async () => {
		const logs: string[] = [];
		const mailer = createMailer(
			{ smtpUrl: undefined, from: "atelier@example.com" },
			createLogger("info", (line) => logs.push(line)),
		);
		const link = "http://localhost:3000/api/auth/reset-password/xyz?callbackURL=%2Freset-password";
		mailer.sendInBackground(
			createPasswordResetMessage({ to: "kim@example.com", link, language: "en" }),
		);
		await mailer.close();
		expect(mailer.kind).toBe("log");
		expect(logs.map((line) => JSON.parse(line))).toEqual([
			expect.objectContaining({
				level: "warn",
				to: "kim@example.com",
				subject: "Reset your Atelier password",
				link,
			}),
		]);
	});

	it("escapes the address in the HTML part", () => {
		const message = createVerificationMessage({
			to: '"<b>x</b>"@example.com',
			link: "http://localhost:3000/a?b=1&c=2",
			language: "en",
		});
		expect(message.html).toContain("&lt;b&gt;x&lt;/b&gt;");
		expect(message.html).toContain('href="http://localhost:3000/a?b=1&amp;c=2"');
		expect(message.text).toContain("http://localhost:3000/a?b=1&c=2");
	});
});
