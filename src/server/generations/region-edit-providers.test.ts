import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createModelCatalogue, modelFromProvider } from "../models/model-catalogue";
import { DEFAULT_INPAINT_WORKFLOW } from "../providers/comfyui/comfyui-inpaint";
import { createComfyUiProvider } from "../providers/comfyui/comfyui-provider";
import { DEFAULT_IMAGE_WORKFLOW } from "../providers/comfyui/comfyui-workflow";
import { createFalProvider } from "../providers/fal/fal-provider";
import { createHttpProvider } from "../providers/http/http-provider";
import { createOpenAiProvider } from "../providers/openai/openai-provider";
import { createReplicateProvider } from "../providers/replicate/replicate-provider";
import { type FakeComfyUi, startFakeComfyUi } from "../testing/fakes/comfyui";
import { decodeDataUri } from "../testing/fakes/fake-server";
import { FAKE_FAL_KEY, type FakeFal, startFakeFal } from "../testing/fakes/fal";
import {
	type FakeHttpImageService,
	startFakeHttpImageService,
} from "../testing/fakes/http-image-service";
import { FAKE_OPENAI_KEY, type FakeOpenAi, startFakeOpenAi } from "../testing/fakes/openai";
import {
	FAKE_REPLICATE_TOKEN,
	type FakeReplicate,
	startFakeReplicate,
} from "../testing/fakes/replicate";
import {
	compare,
	createRegionEditServer,
	editRegionOn,
	isInHole,
	make,
	picture,
	readBytes,
	SOURCE_SIZE,
	upload,
} from "../testing/region-kit";
import { availableDatabaseKinds } from "../testing/test-database";
import { createTestUser, type TestServer } from "../testing/test-server";

// Every provider that edits regions, against its vendor's fake: the mask in the vendor's
// convention, and a result whose pixels outside the mask are the source's although the fake
// repaints the whole image (as GPT image models are measured to do).

/** A grey mask (or an alpha channel) read back as raw bytes, one a pixel. */
async function channelOf(data: Uint8Array, channel: 0 | 1 | 2 | 3): Promise<Buffer> {
	return sharp(data).extractChannel(channel).raw().toBuffer();
}

/** Whether `values` (one a pixel of SOURCE_SIZE) is `inside` in the hole and `outside` everywhere else. */
function isHoleShaped(values: Buffer, inside: number, outside: number): boolean {
	for (let y = 0; y < SOURCE_SIZE.height; y++) {
		for (let x = 0; x < SOURCE_SIZE.width; x++) {
			if (values[y * SOURCE_SIZE.width + x] !== (isInHole(x, y) ? inside : outside)) return false;
		}
	}
	return true;
}

const InputSchema = z.object({ input: z.record(z.string(), z.unknown()) });

describe.each(availableDatabaseKinds())("region edits on every provider (%s)", (kind) => {
	let server: TestServer;
	let openAi: FakeOpenAi;
	let replicate: FakeReplicate;
	let fal: FakeFal;
	let comfyUi: FakeComfyUi;
	let service: FakeHttpImageService;

	beforeAll(async () => {
		openAi = await startFakeOpenAi({ behaviour: { latencyMs: 0 } });
		replicate = await startFakeReplicate({
			behaviour: { startingMs: 0, processingMs: 20, retryAfterSeconds: 0 },
		});
		fal = await startFakeFal({ behaviour: { queueMs: 0, progressMs: 20 } });
		comfyUi = await startFakeComfyUi({ behaviour: { pendingMs: 0, runningMs: 20 } });
		service = await startFakeHttpImageService({ behaviour: { latencyMs: 0, imageCount: 1 } });
		const catalogue = createModelCatalogue(
			[
				modelFromProvider(
					createOpenAiProvider({
						apiKey: FAKE_OPENAI_KEY,
						baseUrl: openAi.baseUrl,
						partialImages: 0,
					}),
					{ id: "gpt-image", label: "GPT image" },
				),
				modelFromProvider(
					createReplicateProvider({
						apiToken: FAKE_REPLICATE_TOKEN,
						baseUrl: replicate.baseUrl,
						imageInputs: { image: "image", mask: "mask" },
					}),
					{ id: "sdxl-inpaint", label: "SDXL inpainting" },
				),
				modelFromProvider(
					createFalProvider({
						apiKey: FAKE_FAL_KEY,
						queueUrl: fal.queueUrl,
						imageInputs: { image: "image_url", mask: "mask_url" },
					}),
					{ id: "flux-fill", label: "FLUX Fill" },
				),
				modelFromProvider(
					createComfyUiProvider({
						url: comfyUi.origin,
						requestTimeoutMs: 5_000,
						imageWorkflow: DEFAULT_IMAGE_WORKFLOW,
						inpaintWorkflow: DEFAULT_INPAINT_WORKFLOW,
					}),
					{ id: "comfy-inpaint", label: "ComfyUI inpainting" },
				),
				modelFromProvider(
					createHttpProvider({
						apiUrl: service.url,
						images: { image: true, mask: true, outpaint: true },
					}),
					{ id: "service-inpaint", label: "Image service" },
				),
			],
			"gpt-image",
		);
		server = await createRegionEditServer(kind, catalogue);
	});
	afterAll(async () => {
		await server?.close();
		await Promise.all([
			openAi?.stop(),
			replicate?.stop(),
			fal?.stop(),
			comfyUi?.stop(),
			service?.stop(),
		]);
	});

	/**
	 * A 160 px square expanded by half its width to the left on `model`, as a person asks it: how
	 * far the source's pixels, now in the result's right 140 columns, moved at most, and the source.
	 */
	async function expandToTheLeft(model: string) {
		const person = await createTestUser(server);
		const source = await picture(160, 160);
		const expanded = await make(person.client, {
			prompt: "a wide meadow",
			action: "expand",
			reference: await upload(person.client, source),
			expand: { left: 0.5 },
			model,
			count: 1,
		});
		expect(expanded.images[0]).toMatchObject({ width: 240, height: 160 });
		const result = await readBytes(person.client, expanded.images[0]?.url ?? "");
		const kept = await sharp(result)
			.extract({ left: 100, top: 0, width: 140, height: 160 })
			.png()
			.toBuffer();
		const original = await sharp(source)
			.extract({ left: 20, top: 0, width: 140, height: 160 })
			.png()
			.toBuffer();
		return { source, ...(await compare(kept, original, () => true)) };
	}

	async function editRegion(model: string) {
		const { person, source, edited } = await editRegionOn(server, model);
		const result = await readBytes(person.client, edited.images[0]?.url ?? "");
		return compare(result, source, (x, y) => !isInHole(x, y));
	}

	it("sends OpenAI's edit endpoint a mask transparent where the image may change, and keeps every pixel outside it", async () => {
		const { keptMax, changedMean } = await editRegion("gpt-image");
		expect(keptMax).toBeLessThanOrEqual(2);
		expect(changedMean).toBeGreaterThan(30);
		const [mask] = openAi.masks();
		expect(mask && [mask.width, mask.height]).toEqual([SOURCE_SIZE.width, SOURCE_SIZE.height]);
		expect(mask && isHoleShaped(mask.alpha, 0, 255)).toBe(true);
	});

	it.each([
		["Replicate", "sdxl-inpaint", "mask"],
		["fal", "flux-fill", "mask_url"],
	] as const)(
		"sends %s's model a white-means-change mask in the input its entry names, and keeps every pixel outside it",
		async (_vendor, model, input) => {
			const { keptMax, changedMean } = await editRegion(model);
			expect(keptMax).toBeLessThanOrEqual(2);
			expect(changedMean).toBeGreaterThan(30);
			const requests = (model === "sdxl-inpaint" ? replicate : fal).requests();
			const sent = requests
				.map((request) => {
					const body = InputSchema.safeParse(request.body);
					if (body.success) return body.data.input[input];
					const flat = z.record(z.string(), z.unknown()).safeParse(request.body);
					return flat.success ? flat.data[input] : undefined;
				})
				.find((value) => value !== undefined);
			const mask = decodeDataUri(sent);
			expect(mask?.contentType).toBe("image/png");
			expect(isHoleShaped(await channelOf(mask?.data ?? new Uint8Array(), 0), 255, 0)).toBe(true);
		},
	);

	it("uploads to ComfyUI the image with the mask as its alpha, which LoadImage hands its inpaint node, and keeps every pixel outside it", async () => {
		const { keptMax, changedMean } = await editRegion("comfy-inpaint");
		expect(keptMax).toBeLessThanOrEqual(2);
		expect(changedMean).toBeGreaterThan(30);
		const [mask] = comfyUi.inpaintMasks();
		expect(mask && [mask.width, mask.height]).toEqual([SOURCE_SIZE.width, SOURCE_SIZE.height]);
		expect(mask && isHoleShaped(mask.mask, 255, 0)).toBe(true);
		const workflow = comfyUi.submittedWorkflows().at(-1);
		expect(workflow?.["12"]).toMatchObject({
			class_type: "VAEEncodeForInpaint",
			inputs: { pixels: ["10", 0], mask: ["10", 1] },
		});
		expect(workflow?.["6"]?.inputs.text).toBe("a red door");
	});

	it("sends the http contract's service the image and a white-means-change mask as data: URLs, and keeps every pixel outside it", async () => {
		const { keptMax, changedMean } = await editRegion("service-inpaint");
		expect(keptMax).toBeLessThanOrEqual(2);
		expect(changedMean).toBeGreaterThan(30);
		const [sent] = service.receivedImages();
		expect(sent && [sent.image.width, sent.image.height]).toEqual([
			SOURCE_SIZE.width,
			SOURCE_SIZE.height,
		]);
		expect(sent?.mask && isHoleShaped(sent.mask.grey, 255, 0)).toBe(true);
	});

	it("expands on OpenAI: the source in its new frame, the new area the mask's transparent part", async () => {
		const { keptMax } = await expandToTheLeft("gpt-image");
		const mask = openAi.masks().at(-1);
		expect(mask && [mask.width, mask.height]).toEqual([240, 160]);
		// Transparent over the new 80 columns and a few into the source; opaque beyond.
		expect(mask?.alpha[10]).toBe(0);
		expect(mask?.alpha[80 + 4]).toBe(0);
		expect(mask?.alpha[80 + 20]).toBe(255);
		expect(keptMax).toBeLessThanOrEqual(2);
	});

	/** What a hosted vendor's start carried in the input an entry names, decoded from its data: URI. */
	function sentInput(vendor: FakeReplicate | FakeFal, input: string) {
		const sent = vendor
			.requests()
			.map((request) => {
				const body = InputSchema.safeParse(request.body);
				if (body.success) return body.data.input[input];
				const flat = z.record(z.string(), z.unknown()).safeParse(request.body);
				return flat.success ? flat.data[input] : undefined;
			})
			.filter((value) => value !== undefined)
			.at(-1);
		return decodeDataUri(sent);
	}

	it.each([
		["Replicate", "sdxl-inpaint"],
		["fal", "flux-fill"],
		["the http contract's service", "service-inpaint"],
	] as const)(
		"expands on %s: the source in its widened frame, the mask white over the new area, the source's pixels kept",
		async (_vendor, model) => {
			const { source, keptMax } = await expandToTheLeft(model);
			let canvas: Uint8Array | undefined;
			let grey: Buffer | undefined;
			if (model === "service-inpaint") {
				const sent = service.receivedImages().at(-1);
				canvas = sent?.image.data;
				grey = sent?.mask?.grey;
			} else {
				const isReplicate = model === "sdxl-inpaint";
				const vendor = isReplicate ? replicate : fal;
				const image = sentInput(vendor, isReplicate ? "image" : "image_url");
				const mask = sentInput(vendor, isReplicate ? "mask" : "mask_url");
				expect([image?.contentType, mask?.contentType]).toEqual(["image/png", "image/png"]);
				canvas = image?.data;
				grey = mask && (await channelOf(mask.data, 0));
			}
			// The widened canvas: 240 x 160, the source whole at the right, its pixels as they were.
			const canvasSize = await sharp(canvas).metadata();
			expect([canvasSize.width, canvasSize.height]).toEqual([240, 160]);
			const placed = await sharp(canvas)
				.extract({ left: 80, top: 0, width: 160, height: 160 })
				.png()
				.toBuffer();
			expect((await compare(placed, source, () => true)).keptMax).toBeLessThanOrEqual(2);
			// White over the new 80 columns and a few into the source; black beyond.
			expect(grey?.length).toBe(240 * 160);
			expect([grey?.[10], grey?.[80 + 4], grey?.[80 + 20], grey?.[239]]).toEqual([255, 255, 0, 0]);
			expect(keptMax).toBeLessThanOrEqual(2);
		},
	);

	it("expands on ComfyUI: the source in its new frame, the new area transparent in the upload, the source's pixels kept", async () => {
		const { keptMax } = await expandToTheLeft("comfy-inpaint");
		const mask = comfyUi.inpaintMasks().at(-1);
		expect(mask && [mask.width, mask.height]).toEqual([240, 160]);
		// Repainted over the new 80 columns and a few into the source; kept beyond.
		expect([mask?.mask[10], mask?.mask[80 + 4], mask?.mask[80 + 20]]).toEqual([255, 255, 0]);
		expect(keptMax).toBeLessThanOrEqual(2);
	});
});
