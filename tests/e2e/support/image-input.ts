import type { Page, Response } from "@playwright/test";
import sharp from "sharp";

/**
 * Drops a PNG of one colour, `width` by `height`, on the generator's prompt panel as a person drags
 * a file there, and answers the upload's response (the panel uploads what is dropped on it).
 */
export async function dropImageOnPromptPanel(
	page: Page,
	size: { width: number; height: number },
): Promise<Response> {
	const png = await sharp({ create: { ...size, channels: 3, background: "#336699" } })
		.png()
		.toBuffer();
	const upload = page.waitForResponse((response) => response.url().endsWith("/api/uploads"));
	await page.evaluate((base64) => {
		const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
		const transfer = new DataTransfer();
		transfer.items.add(new File([bytes], "sketch.png", { type: "image/png" }));
		const form = document.querySelector('form[aria-label="Generate images"]');
		form?.dispatchEvent(
			new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }),
		);
	}, png.toString("base64"));
	return upload;
}
