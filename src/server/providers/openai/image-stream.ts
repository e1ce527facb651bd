import { z } from "zod";

/**
 * OpenAI's streamed image answer (`stream: true`): server-sent events, each `data:` a JSON object
 * whose `type` is `image_generation.partial_image` (a partial frame, `b64_json`) or
 * `image_generation.completed` (a finished image, `b64_json`).
 */
const ImageEventSchema = z.object({
	type: z.string(),
	b64_json: z.string().optional(),
});
export type ImageEvent = z.infer<typeof ImageEventSchema>;

/** The events of a block of server-sent-event text; blocks that are not image events are skipped. */
function readEvents(text: string): ImageEvent[] {
	const events: ImageEvent[] = [];
	for (const block of text.split(/\r?\n\r?\n/)) {
		const data = block
			.split(/\r?\n/)
			.filter((line) => line.startsWith("data:"))
			.map((line) => line.slice(5).trimStart())
			.join("\n");
		if (!data) continue;
		try {
			const parsed = ImageEventSchema.safeParse(JSON.parse(data));
			if (parsed.success) events.push(parsed.data);
		} catch {
			// A line that is not JSON (a keep-alive, a comment) says nothing of the images.
		}
	}
	return events;
}

/** Every event of a whole streamed answer. */
export function readImageEvents(bytes: Uint8Array): ImageEvent[] {
	return readEvents(new TextDecoder().decode(bytes));
}

/**
 * Reads the stream as it arrives, handing each complete event to `onEvent`; what is left of a
 * block waits for the next chunk.
 */
export function createImageEventReader(onEvent: (event: ImageEvent) => void) {
	const decoder = new TextDecoder();
	let pending = "";
	return (chunk: Uint8Array): void => {
		pending += decoder.decode(chunk, { stream: true });
		const end = Math.max(pending.lastIndexOf("\n\n"), pending.lastIndexOf("\r\n\r\n"));
		if (end < 0) return;
		const complete = pending.slice(0, end);
		pending = pending.slice(end).replace(/^(\r?\n)+/, "");
		for (const event of readEvents(complete)) onEvent(event);
	};
}
