import { WebSocket } from "ws";
import { z } from "zod";
import { IMAGE_TYPES } from "../../../shared/image-input/image-types";
import type { PreviewFrame, ProviderProgress } from "../types";

/**
 * ComfyUI's WebSocket (`/ws?clientId=`), where it tells the client that queued a prompt how the
 * prompt goes: `progress` {value, max, prompt_id} per sampler step, and binary preview frames
 * (event 1: a 4-byte image format, 1 JPEG or 2 PNG, then the image; event 4: a 4-byte length,
 * JSON metadata naming the prompt, then the image). One socket per provider, opened while some
 * generation is watched, closed when none is; a socket that cannot connect is tried again a few
 * seconds later, and meanwhile the generation is followed by polling alone (without steps).
 */
export type ComfyUiProgressSocket = {
	/** Reports the progress of `promptIds` (one generation's prompts, in order) until stopped. */
	watch(promptIds: readonly string[], onProgress: (progress: ProviderProgress) => void): () => void;
};

const ProgressMessageSchema = z.object({
	type: z.literal("progress"),
	data: z.object({ value: z.number(), max: z.number().positive(), prompt_id: z.string() }),
});
// The events that name the prompt ComfyUI is working on, which preview frames of event 1 belong to.
const PromptEventSchema = z.object({
	type: z.enum(["execution_start", "executing", "execution_cached", "progress_state"]),
	data: z.object({ prompt_id: z.string().optional() }).loose(),
});
const PreviewMetadataSchema = z.object({
	prompt_id: z.string().optional(),
	image_type: z.string().optional(),
});

const RECONNECT_MS = 3_000;
const IMAGE_FORMATS: Record<number, string> = {
	1: IMAGE_TYPES.jpeg.contentType,
	2: IMAGE_TYPES.png.contentType,
};

type Watcher = {
	promptIds: readonly string[];
	onProgress: (progress: ProviderProgress) => void;
};

export function createComfyUiProgressSocket(options: {
	/** The ComfyUI server's base URL (http or https). */
	baseUrl: URL;
	clientId: string;
	headers: Record<string, string>;
}): ComfyUiProgressSocket {
	const url = new URL(
		"ws",
		options.baseUrl.href.endsWith("/") ? options.baseUrl : `${options.baseUrl.href}/`,
	);
	url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
	url.searchParams.set("clientId", options.clientId);
	const watchers = new Set<Watcher>();
	let socket: WebSocket | undefined;
	let reconnectTimer: NodeJS.Timeout | undefined;
	let currentPromptId: string | undefined;

	function report(
		promptId: string | undefined,
		progress: (watcher: Watcher, index: number) => ProviderProgress,
	) {
		if (promptId === undefined) return;
		for (const watcher of watchers) {
			const index = watcher.promptIds.indexOf(promptId);
			if (index >= 0) watcher.onProgress(progress(watcher, index));
		}
	}

	function onText(text: string): void {
		let message: unknown;
		try {
			message = JSON.parse(text);
		} catch {
			return;
		}
		const progress = ProgressMessageSchema.safeParse(message);
		if (progress.success) {
			const { value, max, prompt_id: promptId } = progress.data.data;
			currentPromptId = promptId;
			// A generation of several prompts runs them in turn: each is an equal share of the whole.
			report(promptId, (watcher, index) => ({
				step: value,
				steps: max,
				progress: ((index + Math.min(1, value / max)) / watcher.promptIds.length) * 100,
			}));
			return;
		}
		const event = PromptEventSchema.safeParse(message);
		if (event.success && event.data.data.prompt_id) currentPromptId = event.data.data.prompt_id;
	}

	function onBinary(data: Buffer): void {
		if (data.length < 8) return;
		const event = data.readUInt32BE(0);
		if (event === 1) {
			const contentType = IMAGE_FORMATS[data.readUInt32BE(4)];
			if (!contentType) return;
			sendPreview(currentPromptId, { data: new Uint8Array(data.subarray(8)), contentType });
			return;
		}
		if (event === 4) {
			const length = data.readUInt32BE(4);
			if (data.length < 8 + length) return;
			let metadata: z.infer<typeof PreviewMetadataSchema>;
			try {
				metadata = PreviewMetadataSchema.parse(JSON.parse(data.subarray(8, 8 + length).toString()));
			} catch {
				return;
			}
			sendPreview(metadata.prompt_id ?? currentPromptId, {
				data: new Uint8Array(data.subarray(8 + length)),
				contentType: metadata.image_type ?? IMAGE_TYPES.png.contentType,
			});
		}
	}

	function sendPreview(promptId: string | undefined, preview: PreviewFrame): void {
		report(promptId, () => ({ preview }));
	}

	function connect(): void {
		if (socket || reconnectTimer || watchers.size === 0) return;
		const opened = new WebSocket(url, { headers: options.headers, handshakeTimeout: 5_000 });
		socket = opened;
		opened.on("message", (data, isBinary) => {
			const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
			if (isBinary) onBinary(bytes);
			else onText(bytes.toString("utf8"));
		});
		// Failing to connect, or losing the socket, costs the steps only: polling goes on.
		opened.on("error", () => {});
		opened.on("close", () => {
			if (socket !== opened) return;
			socket = undefined;
			if (watchers.size === 0) return;
			reconnectTimer = setTimeout(() => {
				reconnectTimer = undefined;
				connect();
			}, RECONNECT_MS);
			reconnectTimer.unref();
		});
	}

	function disconnectWhenIdle(): void {
		if (watchers.size > 0) return;
		clearTimeout(reconnectTimer);
		reconnectTimer = undefined;
		const closing = socket;
		socket = undefined;
		closing?.terminate();
	}

	return {
		watch(promptIds, onProgress) {
			const watcher: Watcher = { promptIds, onProgress };
			watchers.add(watcher);
			connect();
			return () => {
				watchers.delete(watcher);
				disconnectWhenIdle();
			};
		},
	};
}
