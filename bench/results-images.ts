import { PLAIN_CAPABILITIES } from "../src/server/providers/types";
// The image bytes of the generator's results screen when the provider returns four large PNGs
// (about 3 MB each), measured in Chromium: a person generates on `/` and the results appear.
//
// Needs `npm run build` first: it serves dist/web (or WEB_DIST; point it at a build of an earlier
// version to compare) through the real server, assembled in this process (in-memory PGlite, workers
// on, images in a temporary folder) on a free port of 127.0.0.1, with a provider of its own that
// hands over the same four PNGs for every generation. Chromium is Debian's, launched by Playwright.
//
//   node bench/run.mjs results-images
//
// Target (issue 14): the results screen transfers under 800 kB of images.

import { randomUUID } from "node:crypto";
import { type Browser, chromium } from "@playwright/test";
import sharp from "sharp";
import { renderImages } from "../src/server/providers/local/render";
import type { ImageProvider, ImageSource } from "../src/server/providers/types";
import {
	BENCH_BASE_URL,
	CHROMIUM_ARGS,
	CHROMIUM_PATH,
	printTable,
	serveBenchServer,
	signUp,
} from "./bench-support";

const WEB_DIST = process.env.WEB_DIST ?? "dist/web";
// Square PNGs this many pixels a side, with film grain so they weigh what a provider's PNG weighs.
const IMAGE_SIDE = Number(process.env.IMAGE_SIDE ?? 1536);
const TARGET_BYTES = 800_000;
const NETWORK_QUIET_MS = 1_000;
const SCREENS = [
	{ name: "laptop 1280x800 @1x", width: 1280, height: 800, scale: 1 },
	{ name: "phone 412x915 @2.625x", width: 412, height: 915, scale: 2.625 },
] as const;

/** Four large PNGs: the offline engine's pictures, enlarged, with grain, as a photo model's look. */
async function makeLargePngs(): Promise<Buffer[]> {
	const pictures = await renderImages({
		prompt: "A harbour at night, lanterns on the water, film photograph",
		aspectRatio: "--ar 1:1",
		count: 4,
	});
	return Promise.all(
		pictures.map(async (picture) => {
			const grain = await sharp({
				create: {
					width: IMAGE_SIDE,
					height: IMAGE_SIDE,
					channels: 4,
					background: { r: 128, g: 128, b: 128, alpha: 0.12 },
					noise: { type: "gaussian", mean: 128, sigma: 12 },
				},
			})
				.png()
				.toBuffer();
			return sharp(picture.data)
				.resize(IMAGE_SIDE, IMAGE_SIDE)
				.composite([{ input: grain, blend: "soft-light" }])
				.png()
				.toBuffer();
		}),
	);
}

function createLargeImageProvider(pngs: Buffer[]): ImageProvider {
	const images: ImageSource[] = pngs.map((data) => ({
		kind: "bytes",
		data: new Uint8Array(data),
		contentType: "image/png",
	}));
	return {
		name: "bench-large-png",
		capabilities: PLAIN_CAPABILITIES,
		async start() {
			return { jobId: `large_${randomUUID()}` };
		},
		async check() {
			return { status: "completed", images };
		},
	};
}

type Measured = { screen: string; requests: string[]; bytes: number; previewBytes: number };

async function measureScreen(
	browser: Browser,
	baseUrl: string,
	cookie: string,
	screen: (typeof SCREENS)[number],
): Promise<Measured> {
	const context = await browser.newContext({
		viewport: { width: screen.width, height: screen.height },
		deviceScaleFactor: screen.scale,
	});
	await context.addCookies(
		cookie.split("; ").map((pair) => {
			const [name = "", ...value] = pair.split("=");
			return { name, value: value.join("="), url: baseUrl };
		}),
	);
	const page = await context.newPage();
	const cdp = await context.newCDPSession(page);
	await cdp.send("Network.enable");
	const urls = new Map<string, string>();
	const images = new Map<string, number>();
	let inFlight = 0;
	let lastActivity = performance.now();
	cdp.on("Network.requestWillBeSent", (event) => {
		urls.set(event.requestId, new URL(event.request.url).pathname);
		inFlight += 1;
		lastActivity = performance.now();
	});
	cdp.on("Network.loadingFinished", (event) => {
		inFlight = Math.max(0, inFlight - 1);
		lastActivity = performance.now();
		const url = urls.get(event.requestId) ?? "";
		if (url.startsWith("/api/images/")) images.set(url, event.encodedDataLength);
	});
	cdp.on("Network.loadingFailed", () => {
		inFlight = Math.max(0, inFlight - 1);
		lastActivity = performance.now();
	});
	const waitForQuiet = async () => {
		const deadline = performance.now() + 60_000;
		while (inFlight > 0 || performance.now() - lastActivity < NETWORK_QUIET_MS) {
			if (performance.now() > deadline) throw new Error("the network never went quiet");
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	};
	const sumImages = () => [...images.values()].reduce((sum, bytes) => sum + bytes, 0);

	try {
		await page.goto(new URL("/", baseUrl).href);
		await page.getByRole("button", { name: "Account menu" }).waitFor();
		await page.getByRole("textbox", { name: "Prompt" }).fill("A harbour at night, lanterns");
		await page.getByRole("button", { name: "Generate" }).click();
		await page
			.getByRole("region", { name: "Result" })
			.getByRole("heading", { name: "4 images" })
			.waitFor({ timeout: 60_000 });
		await waitForQuiet();
		const requests = [...images.keys()].map((url) => url.replace(/^.*\//, ""));
		const bytes = sumImages();
		await page.getByRole("button", { name: "Open image 1 of 4" }).click();
		await page.getByRole("dialog").waitFor();
		await waitForQuiet();
		return { screen: screen.name, requests, bytes, previewBytes: sumImages() - bytes };
	} finally {
		await context.close();
	}
}

function formatKb(bytes: number): string {
	return `${(bytes / 1000).toFixed(0)} kB`;
}

async function main(): Promise<void> {
	const pngs = await makeLargePngs();
	const server = await serveBenchServer({
		provider: createLargeImageProvider(pngs),
		isWorkerEnabled: true,
		webDist: WEB_DIST,
		trustedOrigins: [BENCH_BASE_URL],
	});
	const { baseUrl } = server;
	let browser: Browser | undefined;
	try {
		const { cookie } = await signUp(server, "results-images@example.com");
		browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
		const originalBytes = pngs.reduce((sum, png) => sum + png.length, 0);
		console.log(
			`Provider returns four ${IMAGE_SIDE}x${IMAGE_SIDE} PNGs: ${pngs.map((png) => formatKb(png.length)).join(", ")} (${formatKb(originalBytes)} in all); serving ${WEB_DIST} at ${baseUrl}`,
		);
		const rows: Measured[] = [];
		for (const screen of SCREENS) rows.push(await measureScreen(browser, baseUrl, cookie, screen));
		printTable(
			["screen", "results screen images", "files", "then opening the preview"],
			rows.map((row) => [
				row.screen,
				formatKb(row.bytes),
				row.requests.sort().join(" "),
				`+${formatKb(row.previewBytes)}`,
			]),
		);
		const worst = Math.max(...rows.map((row) => row.bytes));
		console.log(
			`results screen: at most ${formatKb(worst)} of images (target under ${formatKb(TARGET_BYTES)}) ${worst < TARGET_BYTES ? "OK" : "OVER"}`,
		);
	} finally {
		await browser?.close();
		await server.close();
	}
}

await main();
