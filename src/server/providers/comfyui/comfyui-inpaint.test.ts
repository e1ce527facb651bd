import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it, onTestFinished } from "vitest";
import { type FakeComfyUi, startFakeComfyUi } from "../../testing/fakes/comfyui";
import {
	checkUntilDone,
	createTestImage,
	expectCompleted,
	readImages,
	startTestJob,
} from "../../testing/provider-kit";
import type { InputImage } from "../types";
import { DEFAULT_INPAINT_WORKFLOW } from "./comfyui-inpaint";
import { COMFYUI_PROVIDER } from "./comfyui-options";
import { createComfyUiProvider } from "./comfyui-provider";
import { DEFAULT_IMAGE_WORKFLOW } from "./comfyui-workflow";

// ComfyUI's Edit region and Expand: the shipped inpaint workflow, the mask as the uploaded image's
// alpha (which LoadImage turns into its MASK output), and the checks made at start.

async function startFake(): Promise<FakeComfyUi> {
	const fake = await startFakeComfyUi({ behaviour: { pendingMs: 0, runningMs: 0 } });
	onTestFinished(() => fake.stop());
	return fake;
}

/** A mask of `width` x `height`: white over its left half, black over the right. */
async function leftHalfMask(width: number, height: number): Promise<InputImage> {
	const grey = Buffer.alloc(width * height);
	for (let y = 0; y < height; y++) grey.fill(255, y * width, y * width + width / 2);
	const data = await sharp(grey, { raw: { width, height, channels: 1 } })
		.png()
		.toBuffer();
	return { data: new Uint8Array(data), contentType: "image/png", width, height };
}

/** What an entry is built with: the environment's ComfyUI defaults, files read from `baseDir`. */
function contextIn(baseDir: string) {
	return {
		env: {
			COMFYUI_URL: "http://127.0.0.1:8188",
			COMFYUI_PROMPT_INPUT: "6.text",
			COMFYUI_WIDTH_INPUT: "5.width",
			COMFYUI_HEIGHT_INPUT: "5.height",
			COMFYUI_BATCH_INPUT: "5.batch_size",
			COMFYUI_SEED_INPUT: "3.seed",
			COMFYUI_SIZES: "sd15",
			GENERATION_TIMEOUT_MS: 60_000,
			IMAGE_DOWNLOAD_MAX_BYTES: 1_000_000,
			LOG_LEVEL: "error",
		},
		baseDir,
	} as unknown as Parameters<typeof COMFYUI_PROVIDER.create>[1];
}

function createProvider(fake: FakeComfyUi) {
	return createComfyUiProvider({
		url: fake.origin,
		requestTimeoutMs: 5_000,
		imageWorkflow: DEFAULT_IMAGE_WORKFLOW,
		inpaintWorkflow: DEFAULT_INPAINT_WORKFLOW,
	});
}

describe("comfyui provider: Edit region and Expand through an inpaint workflow", () => {
	it("offers a mask and an expansion only with an inpaint workflow", async () => {
		const fake = await startFake();
		expect(createProvider(fake).capabilities).toMatchObject({ mask: true, outpaint: true });
		const without = createComfyUiProvider({
			url: fake.origin,
			imageWorkflow: DEFAULT_IMAGE_WORKFLOW,
		});
		expect(without.capabilities).toMatchObject({ mask: false, outpaint: false });
	});

	it("ships the inpaint workflow with the shipped text workflow, and names it where an entry's own workflow has none", () => {
		const context = contextIn("/");
		expect(COMFYUI_PROVIDER.create({}, context, {}).capabilities).toMatchObject({
			mask: true,
			outpaint: true,
		});
		expect(COMFYUI_PROVIDER.maskNeeds).toBe("an inpaint workflow (inpaintWorkflow)");
	});

	it("refuses at start an inpaint workflow that never uses its LoadImage's mask, naming the field", () => {
		const directory = mkdtempSync(join(tmpdir(), "atelier-inpaint-"));
		// The image-to-image workflow encodes the whole image: the mask would be uploaded for nothing.
		writeFileSync(join(directory, "inpaint.json"), JSON.stringify(DEFAULT_IMAGE_WORKFLOW.workflow));
		const context = contextIn(directory);
		expect(() =>
			COMFYUI_PROVIDER.create(
				{ inpaintWorkflow: { workflowFile: "inpaint.json", inputs: { image: "10.image" } } },
				context,
				{},
			),
		).toThrow(
			/inpaintWorkflow\.inputs\.image: 10\.image: nothing in the workflow takes node "10"'s MASK output/,
		);
		expect(() =>
			createComfyUiProvider({
				url: "http://127.0.0.1:8188",
				inpaintWorkflow: {
					workflow: DEFAULT_IMAGE_WORKFLOW.workflow,
					bindings: DEFAULT_INPAINT_WORKFLOW.bindings,
				},
			}),
		).toThrow(/inpaintWorkflow\.inputs\.image: 10\.image: nothing in the workflow takes/);
	});

	it("uploads the image with the mask as its alpha, scaled to the checkpoint's pixels, and queues one prompt for every image", async () => {
		const fake = await startFake();
		const provider = createProvider(fake);
		const image = await createTestImage({ width: 2000, height: 1000 });
		const job = await startTestJob(provider, {
			prompt: "a red door",
			count: 3,
			seed: 42,
			negativePrompt: "blur",
			image: { kind: "region", image, mask: await leftHalfMask(2000, 1000) },
		});
		const workflow = fake.submittedWorkflows().at(-1);
		expect(fake.submittedWorkflows()).toHaveLength(1);
		expect(workflow?.["10"]?.inputs.image).toMatch(/^atelier\/atelier-[0-9a-f]{24}\.png$/);
		expect(workflow?.["6"]?.inputs.text).toBe("a red door");
		expect(workflow?.["7"]?.inputs.text).toBe("blur");
		expect(workflow?.["3"]?.inputs).toMatchObject({ seed: 42, denoise: 1 });
		expect(workflow?.["13"]?.inputs.amount).toBe(3);
		// At most SD 1.5's 512 x 512 pixels, in multiples of 8, the proportions kept.
		const [mask] = fake.inpaintMasks();
		expect(mask && [mask.width, mask.height]).toEqual([728, 360]);
		const row = (y: number) => mask?.mask.subarray(y * 728, (y + 1) * 728) ?? Buffer.alloc(0);
		expect([row(10)[0], row(10)[300], row(10)[420], row(10)[727]]).toEqual([255, 255, 0, 0]);
		const images = await readImages(provider, expectCompleted(await checkUntilDone(provider, job)));
		expect(images.map((made) => [made.width, made.height])).toEqual([
			[728, 360],
			[728, 360],
			[728, 360],
		]);
	});
});
