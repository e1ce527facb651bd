import type { Language } from "../../shared/i18n/languages";
import {
	mailClaimAction,
	mailClaimIntro,
	mailClaimOutro,
	mailClaimSubject,
	mailLinkFallback,
	mailResetAction,
	mailResetIntro,
	mailResetOutro,
	mailResetSubject,
	mailVerifyAction,
	mailVerifyIntro,
	mailVerifyOutro,
	mailVerifySubject,
} from "../../shared/i18n/messages";
import "../i18n/request-language";
import type { MailMessage } from "./mailer";

const PRODUCT_NAME = "Atelier";

function escapeHtml(text: string): string {
	return text
		.replaceAll("&", "&amp;")
		.replaceAll("<", "&lt;")
		.replaceAll(">", "&gt;")
		.replaceAll('"', "&quot;")
		.replaceAll("'", "&#39;");
}

type MessageParts = {
	to: string;
	language: Language;
	subject: string;
	intro: string;
	action: string;
	link: string;
	outro: string;
};

// Plain words and one link, as text and as simple HTML with no images, style sheets or tracking.
function composeMessage(parts: MessageParts): MailMessage {
	const text = [
		`${PRODUCT_NAME}`,
		"",
		parts.intro,
		"",
		`${parts.action}:`,
		parts.link,
		"",
		parts.outro,
		"",
	].join("\n");
	const html = [
		"<!doctype html>",
		`<html lang="${parts.language}"><head><meta charset="utf-8">`,
		`<title>${escapeHtml(parts.subject)}</title></head>`,
		'<body style="font-family: sans-serif; line-height: 1.5; color: #0f172a">',
		`<p><strong>${PRODUCT_NAME}</strong></p>`,
		`<p>${escapeHtml(parts.intro)}</p>`,
		`<p><a href="${escapeHtml(parts.link)}">${escapeHtml(parts.action)}</a></p>`,
		`<p>${escapeHtml(mailLinkFallback({ language: parts.language }))}<br>${escapeHtml(parts.link)}</p>`,
		`<p>${escapeHtml(parts.outro)}</p>`,
		"</body></html>",
	].join("\n");
	return { to: parts.to, subject: parts.subject, text, html, link: parts.link };
}

/** What each e-mail is given: its address, its link, and the language of the person it goes to. */
type MessageInput = { to: string; link: string; language: Language };

export function createPasswordResetMessage(input: MessageInput): MailMessage {
	const { language } = input;
	const params = { product: PRODUCT_NAME, address: input.to };
	return composeMessage({
		to: input.to,
		language,
		subject: mailResetSubject(params, { language }),
		intro: mailResetIntro(params, { language }),
		action: mailResetAction({ language }),
		link: input.link,
		outro: mailResetOutro({ language }),
	});
}

export function createVerificationMessage(input: MessageInput): MailMessage {
	const { language } = input;
	const params = { product: PRODUCT_NAME, address: input.to };
	return composeMessage({
		to: input.to,
		language,
		subject: mailVerifySubject(params, { language }),
		intro: mailVerifyIntro(params, { language }),
		action: mailVerifyAction({ language }),
		link: input.link,
		outro: mailVerifyOutro(params, { language }),
	});
}

/**
 * The reset link of the account at ADMIN_EMAIL before anyone proved the address: whoever opens it
 * chooses the password, and only then does the account hold the administrator's powers.
 */
export function createAdministratorClaimMessage(input: MessageInput): MailMessage {
	const { language } = input;
	const params = { product: PRODUCT_NAME, address: input.to };
	return composeMessage({
		to: input.to,
		language,
		subject: mailClaimSubject(params, { language }),
		intro: mailClaimIntro(params, { language }),
		action: mailClaimAction({ language }),
		link: input.link,
		outro: mailClaimOutro(params, { language }),
	});
}
