import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A message as the SMTP server received it, parsed. */
export type ReceivedMail = {
	from: string;
	to: string[];
	subject: string;
	text: string;
	html: string;
	/** Every http(s) link in the text part, in order. */
	links: string[];
	receivedAt: number;
};

export type SmtpInbox = {
	/** `smtp://user:password@127.0.0.1:<port>` for SMTP_URL. */
	smtpUrl: string;
	messages(): ReceivedMail[];
	/** The first message to `to` received after `since` (ms since epoch), waiting up to `timeoutMs`. */
	waitForMail(to: string, options?: { since?: number; timeoutMs?: number }): Promise<ReceivedMail>;
	/** Serves the inbox as JSON on `GET /messages?to=` for another process (the browser journeys). */
	serveOverHttp(port?: number): Promise<string>;
	stop(): Promise<void>;
};

const USER = "atelier";
const PASSWORD = "inbox-password";

/**
 * A real SMTP server on 127.0.0.1 that keeps every message it receives, for tests. It asks for
 * the credentials in its URL, so a mailer that ignored them would fail.
 */
export async function startSmtpInbox(port = 0): Promise<SmtpInbox> {
	const received: ReceivedMail[] = [];
	const waiters = new Set<() => void>();
	const server = new SMTPServer({
		logger: false,
		disabledCommands: ["STARTTLS"],
		allowInsecureAuth: true,
		authMethods: ["PLAIN", "LOGIN"],
		onAuth(auth, _session, callback) {
			if (auth.username === USER && auth.password === PASSWORD) {
				callback(null, { user: USER });
				return;
			}
			callback(new Error("Invalid username or password"));
		},
		onData(stream, session, callback) {
			simpleParser(stream)
				.then((parsed) => {
					const text = parsed.text ?? "";
					received.push({
						from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
						to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
						subject: parsed.subject ?? "",
						text,
						html: typeof parsed.html === "string" ? parsed.html : "",
						links: text.match(/https?:\/\/\S+/g) ?? [],
						receivedAt: Date.now(),
					});
					for (const wake of waiters) wake();
					callback();
				})
				.catch((error: unknown) =>
					callback(error instanceof Error ? error : new Error(String(error))),
				);
		},
	});
	await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
	const address = server.server.address() as AddressInfo;
	let httpServer: Server | undefined;

	const findMail = (to: string, since: number) =>
		received.find((mail) => mail.receivedAt >= since && mail.to.includes(to.toLowerCase()));

	return {
		smtpUrl: `smtp://${USER}:${PASSWORD}@127.0.0.1:${address.port}`,
		messages: () => [...received],
		waitForMail(to, options = {}) {
			const since = options.since ?? 0;
			const timeoutMs = options.timeoutMs ?? 10_000;
			return new Promise((resolve, reject) => {
				const check = () => {
					const mail = findMail(to, since);
					if (!mail) return;
					clearTimeout(timer);
					waiters.delete(check);
					resolve(mail);
				};
				const timer = setTimeout(() => {
					waiters.delete(check);
					reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
				}, timeoutMs);
				waiters.add(check);
				check();
			});
		},
		async serveOverHttp(httpPort = 0) {
			httpServer = createServer((request, response) => {
				const url = new URL(request.url ?? "/", "http://127.0.0.1");
				const to = url.searchParams.get("to")?.toLowerCase();
				const messages = to ? received.filter((mail) => mail.to.includes(to)) : received;
				response.writeHead(200, { "content-type": "application/json" });
				response.end(JSON.stringify(messages));
			});
			await new Promise<void>((resolve) => httpServer?.listen(httpPort, "127.0.0.1", resolve));
			return `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
		},
		async stop() {
			await new Promise<void>((resolve) => httpServer?.close(() => resolve()) ?? resolve());
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
