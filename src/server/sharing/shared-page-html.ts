import {
	REPORT_REASON_MAX_LENGTH,
	type SharedPage,
	sharedPagePath,
} from "../../shared/history/sharing";
import { INTL_LOCALES, type Language } from "../../shared/i18n/languages";
import {
	shareImageAlt,
	shareImageAltPosition,
	shareImageNoPrompt,
	shareImageNoPromptPosition,
	sharePageAllImages,
	sharePageAspectRatio,
	sharePageDownloadOriginal,
	sharePageEmptyBoard,
	sharePageExpiry,
	sharePageHeading,
	sharePageImages,
	sharePageModel,
	sharePageNegativePrompt,
	sharePageNewer,
	sharePageNext,
	sharePageOlder,
	sharePagePages,
	sharePagePrevious,
	sharePagePrompt,
	sharePageReport,
	sharePageReportNote,
	sharePageReportReason,
	sharePageReportSubmit,
	sharePageSeed,
	sharePageTitle,
} from "../../shared/i18n/messages";
import type { MessageOptions } from "../../shared/i18n/runtime";

/**
 * The shared page as one HTML string: no app bundle, styles inline (system colours, so it follows
 * the visitor's light or dark scheme), and one small script of our own origin for the preview
 * keys. Everything works without it: every image, the previous and next ones and the report form
 * are plain links and a plain form. Written in the visitor's language (the browser's cookie, else its
 * Accept-Language: the server reads no session for a page), `<html lang>` saying which.
 */

/** The preview keys: ← and → follow the previous and next links, Escape the one back to all images. */
export const PREVIEW_KEYS_SCRIPT = `addEventListener("keydown",function(e){if(e.altKey||e.ctrlKey||e.metaKey||/^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName))return;var r={ArrowLeft:"prev",ArrowRight:"next",Escape:"up"}[e.key];var a=r&&document.querySelector('a[data-key="'+r+'"]');if(a){e.preventDefault();location.href=a.href}});\n`;

/** Where the script is served, beside the pages (a token is never this short). */
export const PREVIEW_KEYS_PATH = "/s/preview-keys.js";

const STYLE = `:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.5}
body{margin:0;background:Canvas;color:CanvasText}
main{max-width:72rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.25rem;margin:0 0 1rem}
a{color:LinkText}
.grid{display:grid;gap:.75rem;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));list-style:none;padding:0;margin:0}
.grid img,.preview img{display:block;max-width:100%;height:auto;border-radius:.5rem}
.preview img{max-height:80vh;margin:0 auto}
nav.pager{display:flex;gap:1rem;justify-content:center;margin:1rem 0}
.prompt{white-space:pre-wrap;border:1px solid GrayText;border-radius:.5rem;padding:.75rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{font-weight:600}dd{margin:0}
details{margin-top:2rem}textarea{width:100%;max-width:32rem;font:inherit}
button{font:inherit;padding:.4rem .9rem;margin-top:.5rem}
.note{font-size:.875rem}`;

function escapeHtml(text: string): string {
	return text
		.replace(/&/g, "&amp;")
		.replace(/</g, "&lt;")
		.replace(/>/g, "&gt;")
		.replace(/"/g, "&quot;")
		.replace(/'/g, "&#39;");
}

function document(
	title: string,
	body: string,
	options: { hasScript: boolean; language: Language },
): string {
	return `<!doctype html>
<html lang="${options.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)} · Atelier</title>
<style>${STYLE}</style>
${options.hasScript ? `<script src="${PREVIEW_KEYS_PATH}" defer></script>\n` : ""}</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function describeImage(page: SharedPage, index: number, o: MessageOptions): string {
	const count = page.images.length;
	const prompt = page.images[index]?.prompt ?? null;
	const position = { index: index + 1, count };
	if (prompt === null) {
		return count > 1 ? shareImageNoPromptPosition(position, o) : shareImageNoPrompt(o);
	}
	return count > 1
		? shareImageAltPosition({ ...position, prompt }, o)
		: shareImageAlt({ prompt }, o);
}

/** When a link ends, in UTC: English keeps its HTTP-date form, another language its own. */
function formatExpiry(expiresAt: string, language: Language): string {
	const date = new Date(expiresAt);
	if (language === "en") return date.toUTCString();
	const format = new Intl.DateTimeFormat(INTL_LOCALES[language], {
		dateStyle: "full",
		timeStyle: "short",
		timeZone: "UTC",
	});
	return `${format.format(date)} UTC`;
}

/** Which page of a board's link a page is: none for the first, and for a generation's link. */
export type PagePosition = { after?: string | undefined; before?: string | undefined };

/** A page's address under its link, with the page's cursor and the image it previews. */
function pageHref(token: string, position: PagePosition, image?: number | "last"): string {
	const query = new URLSearchParams();
	if (position.after) query.set("after", position.after);
	else if (position.before) query.set("before", position.before);
	if (image !== undefined) query.set("image", String(image));
	const search = query.toString();
	return escapeHtml(`${sharedPagePath(token)}${search ? `?${search}` : ""}`);
}

function renderDetails(page: SharedPage, o: MessageOptions): string {
	if (page.prompt === null || page.settings === null) return "";
	const { settings } = page;
	const rows = [
		[sharePageModel(o), settings.model],
		[sharePageAspectRatio(o), settings.aspectRatio],
		...(settings.seed === null ? [] : [[sharePageSeed(o), String(settings.seed)]]),
		...(settings.negativePrompt ? [[sharePageNegativePrompt(o), settings.negativePrompt]] : []),
	];
	return `<h2>${escapeHtml(sharePagePrompt(o))}</h2>
<p class="prompt">${escapeHtml(page.prompt)}</p>
<dl>${rows.map(([name, value]) => `<dt>${escapeHtml(name ?? "")}</dt><dd>${escapeHtml(value ?? "")}</dd>`).join("")}</dl>`;
}

function renderReportForm(page: SharedPage, notice: string | undefined, o: MessageOptions): string {
	return `<details${notice ? " open" : ""}>
<summary>${escapeHtml(sharePageReport(o))}</summary>
${notice ? `<p role="status">${escapeHtml(notice)}</p>` : ""}<form method="post" action="${escapeHtml(page.reportUrl)}">
<p><label for="report-reason">${escapeHtml(sharePageReportReason(o))}</label><br>
<textarea id="report-reason" name="reason" rows="3" required maxlength="${REPORT_REASON_MAX_LENGTH}"></textarea></p>
<button type="submit">${escapeHtml(sharePageReportSubmit(o))}</button>
</form>
<p class="note">${escapeHtml(sharePageReportNote(o))}</p>
</details>`;
}

/** The Newer and Older links of a board's page, which work without JavaScript. */
function renderBoardPager(page: SharedPage, token: string, o: MessageOptions): string {
	const board = page.board;
	if (!board || (board.newerCursor === null && board.olderCursor === null)) return "";
	return `<nav class="pager" aria-label="${escapeHtml(sharePagePages(o))}">
${board.newerCursor === null ? "" : `<a rel="prev" href="${pageHref(token, { before: board.newerCursor })}">${escapeHtml(sharePageNewer(o))}</a>`}
${board.olderCursor === null ? "" : `<a rel="next" href="${pageHref(token, { after: board.olderCursor })}">${escapeHtml(sharePageOlder(o))}</a>`}
</nav>`;
}

/** One image with the previous, next and all-images links the preview keys follow. */
function renderPreview(
	page: SharedPage,
	token: string,
	position: PagePosition,
	index: number,
	o: MessageOptions,
) {
	const image = page.images[index];
	if (!image) return "";
	const count = page.images.length;
	const board = page.board;
	// At a page's ends, ← and → cross to the board's newer and older pages.
	const previous =
		index > 0
			? pageHref(token, position, index - 1)
			: board?.newerCursor
				? pageHref(token, { before: board.newerCursor }, "last")
				: undefined;
	const next =
		index < count - 1
			? pageHref(token, position, index + 1)
			: board?.olderCursor
				? pageHref(token, { after: board.olderCursor }, 0)
				: undefined;
	const prompt =
		board && image.prompt !== null ? `<p class="prompt">${escapeHtml(image.prompt)}</p>\n` : "";
	return `<figure class="preview">
<img src="${escapeHtml(image.url)}" width="${image.width}" height="${image.height}" alt="${escapeHtml(describeImage(page, index, o))}">
</figure>
<nav class="pager" aria-label="${escapeHtml(sharePageImages(o))}">
${previous === undefined ? "" : `<a data-key="prev" rel="prev" href="${previous}">${escapeHtml(sharePagePrevious(o))}</a>`}
<a data-key="up" href="${pageHref(token, position)}">${escapeHtml(sharePageAllImages(o))}</a>
${next === undefined ? "" : `<a data-key="next" rel="next" href="${next}">${escapeHtml(sharePageNext(o))}</a>`}
</nav>
${prompt}${image.originalUrl ? `<p><a href="${escapeHtml(image.originalUrl)}" download>${escapeHtml(sharePageDownloadOriginal(o))}</a></p>` : ""}`;
}

/**
 * The shared page: every image (each a link to its preview), or with `imageIndex` that one image
 * with the previous, next and all-images links the preview keys follow. A board's page also has
 * Newer and Older links to the pages around it.
 */
export function renderSharedPage(
	page: SharedPage,
	token: string,
	options: {
		imageIndex?: number | undefined;
		notice?: string | undefined;
		position?: PagePosition | undefined;
		/** The visitor's language: English when left out. */
		language?: Language | undefined;
	} = {},
): string {
	const { imageIndex } = options;
	const language = options.language ?? "en";
	const o = { language };
	const position = options.position ?? {};
	const count = page.images.length;
	const title = page.board?.name ?? page.prompt ?? sharePageTitle({ count }, o);
	let content: string;
	if (imageIndex !== undefined && page.images[imageIndex]) {
		content = renderPreview(page, token, position, imageIndex, o);
	} else if (page.board && count === 0) {
		content = `<p>${escapeHtml(sharePageEmptyBoard(o))}</p>`;
	} else {
		content = `<ul class="grid">
${page.images
	.map(
		(entry, index) =>
			`<li><a href="${pageHref(token, position, index)}"><img src="${escapeHtml(entry.url)}" width="${entry.width}" height="${entry.height}" alt="${escapeHtml(describeImage(page, index, o))}"></a></li>`,
	)
	.join("\n")}
</ul>
${renderBoardPager(page, token, o)}`;
	}
	const expiry = page.expiresAt
		? `<p class="note">${escapeHtml(sharePageExpiry({ date: formatExpiry(page.expiresAt, language) }, o))}</p>`
		: "";
	const heading = page.board ? page.board.name : page.prompt === null ? title : sharePageHeading(o);
	const body = `<h1>${escapeHtml(heading)}</h1>
${content}
${renderDetails(page, o)}
${expiry}
${renderReportForm(page, options.notice, o)}`;
	return document(title, body, { hasScript: true, language });
}

/** The page of a link that shows nothing: ended (410), taken down (451), unknown (404), and others. */
export function renderNoticePage(title: string, message: string, language: Language): string {
	return document(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`, {
		hasScript: false,
		language,
	});
}
