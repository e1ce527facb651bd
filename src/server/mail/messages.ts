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
		'<html lang="en"><head><meta charset="utf-8">',
		`<title>${escapeHtml(parts.subject)}</title></head>`,
		'<body style="font-family: sans-serif; line-height: 1.5; color: #0f172a">',
		`<p><strong>${PRODUCT_NAME}</strong></p>`,
		`<p>${escapeHtml(parts.intro)}</p>`,
		`<p><a href="${escapeHtml(parts.link)}">${escapeHtml(parts.action)}</a></p>`,
		`<p>If the button does not work, copy this address into your browser:<br>${escapeHtml(parts.link)}</p>`,
		`<p>${escapeHtml(parts.outro)}</p>`,
		"</body></html>",
	].join("\n");
	return { to: parts.to, subject: parts.subject, text, html, link: parts.link };
}

export function createPasswordResetMessage(input: { to: string; link: string }): MailMessage {
	return composeMessage({
		to: input.to,
		subject: `Reset your ${PRODUCT_NAME} password`,
		intro: `Someone asked to reset the password of the ${PRODUCT_NAME} account for ${input.to}. The link works once and expires in one hour.`,
		action: "Set a new password",
		link: input.link,
		outro: "If you did not ask for this, ignore this e-mail: your password stays as it is.",
	});
}

export function createVerificationMessage(input: { to: string; link: string }): MailMessage {
	return composeMessage({
		to: input.to,
		subject: `Verify your e-mail address for ${PRODUCT_NAME}`,
		intro: `Please confirm that ${input.to} is your address, so you can generate images with ${PRODUCT_NAME}. The link expires in one hour.`,
		action: "Verify my e-mail address",
		link: input.link,
		outro: `If you did not sign up for ${PRODUCT_NAME}, ignore this e-mail.`,
	});
}

/**
 * The reset link of the account at ADMIN_EMAIL before anyone proved the address: whoever opens it
 * chooses the password, and only then does the account hold the administrator's powers.
 */
export function createAdministratorClaimMessage(input: { to: string; link: string }): MailMessage {
	return composeMessage({
		to: input.to,
		subject: `Claim the ${PRODUCT_NAME} administrator's account`,
		intro: `${input.to} is this ${PRODUCT_NAME} server's administrator address. To take up the administrator's role, open the link and choose the account's password: every session, API token and webhook made before then ends. The link works once and expires in one hour.`,
		action: "Claim the administrator's account",
		link: input.link,
		outro: `If you did not sign up for ${PRODUCT_NAME}, ignore this e-mail: nobody holds the administrator's powers until the link is used.`,
	});
}
