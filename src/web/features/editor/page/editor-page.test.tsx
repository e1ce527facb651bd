// The mask editor as a person uses it, against the API faked at the network's edge: its tools by
// keyboard, undo and redo, invert, and what Generate uploads and sends for each tool.
import { inflateSync } from "node:zlib";
import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Generation } from "../../../../shared/generations/generation-responses";
import type { PublicModel } from "../../../../shared/generations/models";
import {
	createTestGeneration,
	createTestImages,
	createTestModel,
} from "../../../testing/fakes/test-generations";
import {
	cleanUpHistoryScreen,
	openHistory,
	setUpHistoryScreen,
} from "../../../testing/history-screen";
import { mswServer } from "../../../testing/msw-server";

beforeEach(setUpHistoryScreen);
afterEach(cleanUpHistoryScreen);

const INPAINTER = createTestModel({
	id: "inpainter",
	label: "Inpainter",
	imageInput: true,
	mask: true,
	outpaint: true,
	counts: [1, 2],
	seed: true,
});
const PAINTER_ONLY = createTestModel({ id: "painter", label: "Painter", imageInput: true });
const OUTPAINTER = createTestModel({ id: "outpainter", label: "Outpainter", outpaint: true });

/** The source: a square generation of 64 px images, small enough to check every mask pixel. */
function createSource(): Generation {
	const source = createTestGeneration({ prompt: "A harbour at dawn" });
	const images = createTestImages(source.id, "--ar 1:1").map((image) => ({
		...image,
		width: 64,
		height: 64,
	}));
	return { ...source, images, model: { id: INPAINTER.id, label: INPAINTER.label } };
}

type Recorded = { uploads: Uint8Array[]; starts: unknown[] };

function serveEditor(source: Generation, models: PublicModel[] = [INPAINTER, PAINTER_ONLY]) {
	const recorded: Recorded = { uploads: [], starts: [] };
	mswServer.use(
		http.get("*/api/models", () =>
			HttpResponse.json({ models, defaultModelId: models[0]?.id ?? "", preferredModelId: null }),
		),
		http.get("*/api/generations/:id", ({ params }) =>
			params.id === source.id
				? HttpResponse.json(source)
				: HttpResponse.json(
						{ success: false, error: { code: "NOT_FOUND", message: "Not found" } },
						{ status: 404 },
					),
		),
		http.post("*/api/uploads", async ({ request }) => {
			const file = (await request.formData()).get("image");
			if (file === null || typeof file === "string") throw new Error("no image sent");
			recorded.uploads.push(new Uint8Array(await file.arrayBuffer()));
			return HttpResponse.json(
				{ uploadId: "mask-upload-1", width: 64, height: 64, contentType: "image/png" },
				{ status: 201 },
			);
		}),
		http.post("*/api/generations", async ({ request }) => {
			recorded.starts.push(await request.json());
			return HttpResponse.json(
				{
					success: true,
					id: "new-generation",
					pollingUrl: "/api/generations/new-generation/status",
				},
				{ status: 201 },
			);
		}),
	);
	return recorded;
}

/** The pixels of a greyscale PNG as the mask encoder writes it (one IDAT, no filters). */
function readMaskPixels(png: Uint8Array): { width: number; rows: number[][] } {
	const view = new DataView(png.buffer, png.byteOffset);
	const width = view.getUint32(16);
	const height = view.getUint32(20);
	expect(png[25]).toBe(0);
	const length = view.getUint32(33);
	const raw = inflateSync(png.subarray(41, 41 + length));
	const rows = Array.from({ length: height }, (_, y) =>
		[...raw.subarray(y * (width + 1) + 1, (y + 1) * (width + 1))].map(Number),
	);
	return { width, rows };
}

async function openEditor(path: string) {
	const view = openHistory({ path });
	// The editor's chunk loads on demand, slowly on a busy machine.
	await screen.findByRole("application", { name: "Image and mask" }, { timeout: 10_000 });
	return view;
}

const regionPath = (source: Generation) => `/edit?generation=${source.id}&image=0&tool=region`;

describe("the mask editor", () => {
	it("switches tools and sizes by their keys", async () => {
		const source = createSource();
		serveEditor(source);
		const { user } = await openEditor(regionPath(source));
		const brush = screen.getByRole("button", { name: "Brush" });
		const eraser = screen.getByRole("button", { name: "Eraser" });
		expect(brush).toHaveAttribute("aria-pressed", "true");
		await user.keyboard("e");
		expect(eraser).toHaveAttribute("aria-pressed", "true");
		expect(brush).toHaveAttribute("aria-pressed", "false");
		await user.keyboard("b");
		expect(brush).toHaveAttribute("aria-pressed", "true");

		const size = screen.getByRole("slider", { name: /Brush size/ });
		const before = Number((size as HTMLInputElement).value);
		await user.keyboard("]");
		expect(Number((size as HTMLInputElement).value)).toBeGreaterThan(before);
		// "[[" is how user-event types one "[".
		await user.keyboard("[[[[");
		expect(Number((size as HTMLInputElement).value)).toBeLessThan(before);
	});

	it("undoes and redoes strokes painted by keyboard, by their keys", async () => {
		const source = createSource();
		serveEditor(source);
		const { user } = await openEditor(regionPath(source));
		const undo = screen.getByRole("button", { name: "Undo" });
		const redo = screen.getByRole("button", { name: "Redo" });
		expect(undo).toBeDisabled();
		screen.getByRole("application", { name: "Image and mask" }).focus();
		await user.keyboard("{Enter}");
		expect(undo).toBeEnabled();
		await user.keyboard("{Shift>}{ArrowRight}{/Shift}");
		await user.keyboard("{Control>}z{/Control}");
		await user.keyboard("{Control>}z{/Control}");
		expect(undo).toBeDisabled();
		expect(redo).toBeEnabled();
		await user.keyboard("{Control>}{Shift>}z{/Shift}{/Control}");
		expect(undo).toBeEnabled();
		await user.keyboard("{Control>}y{/Control}");
		expect(redo).toBeDisabled();
	});

	it("uploads the painted mask, inverted, at the source's size and starts an edit of the region", async () => {
		const source = createSource();
		const recorded = serveEditor(source);
		const { user, readLocation } = await openEditor(regionPath(source));
		// The prompt is the source's; only the models that can edit a region are offered.
		expect(screen.getByRole("textbox", { name: "Prompt" })).toHaveValue("A harbour at dawn");
		expect(screen.queryByRole("combobox", { name: "Model" })).not.toBeInTheDocument();

		screen.getByRole("application", { name: "Image and mask" }).focus();
		await user.keyboard("{Enter}");
		await user.click(screen.getByRole("button", { name: "Invert" }));
		await user.click(
			within(screen.getByRole("radiogroup", { name: "Images" })).getByLabelText("2 images"),
		);
		await user.type(screen.getByRole("spinbutton", { name: "Seed" }), "42");
		await user.click(screen.getByRole("button", { name: "Generate" }));

		await waitFor(() => expect(recorded.starts).toHaveLength(1));
		expect(recorded.starts[0]).toEqual({
			action: "edit-region",
			reference: { generationId: source.id, imageIndex: 0 },
			mask: { uploadId: "mask-upload-1" },
			prompt: "A harbour at dawn",
			model: INPAINTER.id,
			count: 2,
			seed: 42,
		});
		expect(recorded.uploads).toHaveLength(1);
		const mask = readMaskPixels(recorded.uploads[0] ?? new Uint8Array());
		expect(mask.width).toBe(64);
		expect(mask.rows).toHaveLength(64);
		// A dab at the centre, inverted: kept there, changed at the corners.
		expect(mask.rows[32]?.[32]).toBe(0);
		expect(mask.rows[0]?.[0]).toBe(255);
		expect(mask.rows[63]?.[63]).toBe(255);
		await waitFor(() => expect(readLocation()).toBe("/generations"));
	});

	it("says to paint first when the mask is empty, and sends nothing", async () => {
		const source = createSource();
		const recorded = serveEditor(source);
		const { user } = await openEditor(regionPath(source));
		await user.click(screen.getByRole("button", { name: "Generate" }));
		expect(await screen.findByRole("alert")).toHaveTextContent("Paint the area to change first.");
		screen.getByRole("application", { name: "Image and mask" }).focus();
		await user.keyboard("{Enter}");
		await user.click(screen.getByRole("button", { name: "Clear" }));
		await user.click(screen.getByRole("button", { name: "Generate" }));
		expect(screen.getByRole("alert")).toHaveTextContent("Paint the area to change first.");
		expect(recorded.uploads).toHaveLength(0);
		expect(recorded.starts).toHaveLength(0);
	});

	it("shows the server's refusal and keeps the mask to try again", async () => {
		const source = createSource();
		serveEditor(source);
		mswServer.use(
			http.post("*/api/generations", () =>
				HttpResponse.json(
					{
						success: false,
						error: {
							code: "VALIDATION_ERROR",
							message: "mask must be the source's size (64 × 64)",
						},
					},
					{ status: 400 },
				),
			),
		);
		const { user } = await openEditor(regionPath(source));
		screen.getByRole("application", { name: "Image and mask" }).focus();
		await user.keyboard("{Enter}");
		await user.click(screen.getByRole("button", { name: "Generate" }));
		expect(await screen.findByRole("alert")).toHaveTextContent(
			"mask must be the source's size (64 × 64)",
		);
		expect(screen.getByRole("button", { name: "Undo" })).toBeEnabled();
		expect(screen.getByRole("button", { name: "Generate" })).toBeEnabled();
	});

	it("expands a square to 16:9, centred, sending the room on each side and no mask", async () => {
		const source = createSource();
		const recorded = serveEditor(source, [PAINTER_ONLY, OUTPAINTER]);
		const { user } = openHistory({ path: `/edit?generation=${source.id}&image=0&tool=expand` });
		const frame = await screen.findByRole(
			"application",
			{ name: "Image in its new frame" },
			{ timeout: 10_000 },
		);
		await user.click(screen.getByRole("radio", { name: /^21:9/ }));
		await user.click(screen.getByRole("radio", { name: /^16:9/ }));
		expect(screen.getByText("114 × 64 px")).toBeInTheDocument();
		// Moved a step left with the keyboard, then back: centred again.
		frame.focus();
		await user.keyboard("{ArrowLeft}{ArrowRight}");
		await user.click(screen.getByRole("button", { name: "Generate" }));

		await waitFor(() => expect(recorded.starts).toHaveLength(1));
		expect(recorded.starts[0]).toEqual({
			action: "expand",
			reference: { generationId: source.id, imageIndex: 0 },
			expand: { left: 0.3889, right: 0.3889, top: 0, bottom: 0 },
			prompt: "A harbour at dawn",
			model: OUTPAINTER.id,
			count: 4,
		});
		expect(recorded.uploads).toHaveLength(0);
	});

	it("takes a percentage per side and refuses an expansion that adds nothing", async () => {
		const source = createSource();
		const recorded = serveEditor(source);
		const { user } = openHistory({ path: `/edit?generation=${source.id}&image=0&tool=expand` });
		await screen.findByRole("application", { name: "Image in its new frame" }, { timeout: 10_000 });
		for (const side of ["Left", "Right", "Top", "Bottom"]) {
			await user.clear(screen.getByRole("spinbutton", { name: new RegExp(`^${side}`) }));
		}
		await user.click(screen.getByRole("button", { name: "Generate" }));
		expect(await screen.findByRole("alert")).toHaveTextContent("Choose a larger frame first.");
		await user.type(screen.getByRole("spinbutton", { name: /^Top/ }), "50");
		await user.click(screen.getByRole("button", { name: "Generate" }));
		await waitFor(() => expect(recorded.starts).toHaveLength(1));
		expect(recorded.starts[0]).toMatchObject({
			action: "expand",
			expand: { left: 0, right: 0, top: 0.5, bottom: 0 },
		});
	});

	it("reopens an expansion from Use settings with its prompt, count, seed and placement", async () => {
		const source = createSource();
		const expansion = createTestGeneration({
			prompt: "The harbour and the hills around it",
			model: { id: INPAINTER.id, label: INPAINTER.label },
			settings: { ...source.settings, count: 2, seed: 777 },
			parent: { generationId: source.id, imageIndex: 0, action: "expand", exists: true },
			region: {
				sourceUrl: "/api/generations/x/source",
				maskUrl: null,
				frame: { width: 96, height: 64, left: 32, top: 0, sourceWidth: 64, sourceHeight: 64 },
			},
		});
		const recorded = serveEditor(source);
		mswServer.use(
			http.get(`*/api/generations/${expansion.id}`, () => HttpResponse.json(expansion)),
		);
		const { user } = openHistory({
			path: `/edit?generation=${source.id}&image=0&tool=expand&reopen=${expansion.id}`,
		});
		await screen.findByRole("application", { name: "Image in its new frame" }, { timeout: 10_000 });
		expect(screen.getByRole("textbox", { name: "Prompt" })).toHaveValue(
			"The harbour and the hills around it",
		);
		expect(screen.getByRole("spinbutton", { name: "Seed" })).toHaveValue(777);
		expect(screen.getByText("96 × 64 px")).toBeInTheDocument();
		await user.click(screen.getByRole("button", { name: "Generate" }));
		await waitFor(() => expect(recorded.starts).toHaveLength(1));
		expect(recorded.starts[0]).toMatchObject({
			expand: { left: 0.5, right: 0, top: 0, bottom: 0 },
			count: 2,
			seed: 777,
		});
	});

	it("offers the generator's Random seed dice, which empties a reopened seed so the server draws one", async () => {
		const source = createSource();
		const edit = createTestGeneration({
			prompt: "A red door",
			model: { id: INPAINTER.id, label: INPAINTER.label },
			settings: { ...source.settings, count: 1, seed: 777 },
			parent: { generationId: source.id, imageIndex: 0, action: "edit-region", exists: true },
		});
		const recorded = serveEditor(source);
		mswServer.use(http.get(`*/api/generations/${edit.id}`, () => HttpResponse.json(edit)));
		const { user } = await openEditor(`${regionPath(source)}&reopen=${edit.id}`);
		const seed = screen.getByRole("spinbutton", { name: "Seed" });
		await waitFor(() => expect(seed).toHaveValue(777));

		await user.click(screen.getByRole("button", { name: "Random seed" }));
		expect(seed).toHaveValue(null);
		expect(screen.getByRole("button", { name: "Random seed" })).toBeDisabled();
		screen.getByRole("application", { name: "Image and mask" }).focus();
		await user.keyboard("{Enter}");
		await user.click(screen.getByRole("button", { name: "Generate" }));
		await waitFor(() => expect(recorded.starts).toHaveLength(1));
		expect(recorded.starts[0]).not.toHaveProperty("seed");
	});

	it("says so when no model offered can do the tool", async () => {
		const source = createSource();
		serveEditor(source, [PAINTER_ONLY]);
		openHistory({ path: regionPath(source) });
		expect(await screen.findByRole("alert")).toHaveTextContent(
			"No model offered can edit a region.",
		);
	});
});
