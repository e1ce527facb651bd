import { createTransport } from "nodemailer";
import type { Logger } from "../logging/logger";

/** One e-mail: plain text and simple HTML carrying the same words and link. */
export type MailMessage = {
	to: string;
	subject: string;
	text: string;
	html: string;
	/** The link the message carries, logged when no SMTP server is configured. */
	link: string;
};

export type Mailer = {
	/** `smtp` sends through SMTP_URL; `log` writes each message to the server log. */
	readonly kind: "smtp" | "log";
	/** Sends at once and resolves when the SMTP server has accepted the message. */
	send(message: MailMessage): Promise<void>;
	/**
	 * Sends without making the caller wait: the answer to a reset or verification request must not
	 * take longer when the address has an account. Failures are logged.
	 */
	sendInBackground(message: MailMessage): void;
	/** Waits for messages still being sent, then closes the SMTP connection. */
	close(): Promise<void>;
};

export type MailConfig = {
	/** `smtp://` or `smtps://`, with credentials in the URL; undefined writes mail to the log. */
	smtpUrl: string | undefined;
	/** `address` or `Name <address>`. */
	from: string;
};

function trackBackgroundSends(send: (message: MailMessage) => Promise<void>, logger: Logger) {
	const pending = new Set<Promise<void>>();
	return {
		sendInBackground(message: MailMessage) {
			const sending = send(message)
				.catch((error: unknown) => {
					// The link stays out of this line: a failed send is not a reason to put it in the log.
					logger.error("sending mail failed", { to: message.to, subject: message.subject, error });
				})
				.finally(() => pending.delete(sending));
			pending.add(sending);
		},
		async settle() {
			await Promise.allSettled([...pending]);
		},
	};
}

/** The mailer the configuration asks for: SMTP when SMTP_URL is set, the server log otherwise. */
export function createMailer(config: MailConfig, logger: Logger): Mailer {
	if (!config.smtpUrl) return createLogMailer(logger);
	const transport = createTransport(config.smtpUrl, { from: config.from });
	const send = async (message: MailMessage) => {
		await transport.sendMail({
			to: message.to,
			subject: message.subject,
			text: message.text,
			html: message.html,
		});
	};
	const background = trackBackgroundSends(send, logger);
	return {
		kind: "smtp",
		send,
		sendInBackground: background.sendInBackground,
		async close() {
			await background.settle();
			transport.close();
		},
	};
}

/**
 * Without SMTP, mail is not lost: each message is written to the server log with its link, so a
 * person running Atelier on one machine can still reset a password or verify an address.
 */
function createLogMailer(logger: Logger): Mailer {
	const send = async (message: MailMessage) => {
		logger.warn("mail not sent (no SMTP_URL configured); its link is here", {
			to: message.to,
			subject: message.subject,
			link: message.link,
		});
	};
	const background = trackBackgroundSends(send, logger);
	return {
		kind: "log",
		send,
		sendInBackground: background.sendInBackground,
		close: background.settle,
	};
}
