import { describe, expect, it } from "vitest";
import { createTestModel } from "../../testing/fakes/test-generations";
import {
	buildEditorLink,
	readEditorLink,
	readEditorToolOf,
	readImageActions,
} from "./image-actions";

describe("the editor's actions on an image", () => {
	it("offers Edit region and Expand where some model offered can do them, whatever made the image", () => {
		const plain = createTestModel({ id: "plain" });
		const inpainter = createTestModel({ id: "inpainter", imageInput: true, mask: true });
		const outpainter = createTestModel({ id: "outpainter", outpaint: true });
		expect(readImageActions("plain", [plain])).toMatchObject({
			canEditRegion: false,
			canExpand: false,
		});
		expect(readImageActions("plain", [plain, inpainter])).toMatchObject({
			canEditRegion: true,
			canExpand: false,
		});
		expect(readImageActions("plain", [plain, outpainter])).toMatchObject({
			canEditRegion: false,
			canExpand: true,
		});
		// A server that does not say is one without the editor.
		expect(readImageActions("plain", undefined)).toMatchObject({ canEditRegion: false });
	});

	it("links the editor to an image of a generation or an upload, and reads the link back", () => {
		const link = buildEditorLink({ generationId: "g-1", imageIndex: 2 }, "expand");
		expect(link).toBe("/edit?generation=g-1&image=2&tool=expand");
		expect(readEditorLink(link.slice(link.indexOf("?")))).toEqual({
			source: { generationId: "g-1", imageIndex: 2 },
			tool: "expand",
			reopen: null,
		});
		const upload = buildEditorLink({ uploadId: "u-1" }, "region", "g-9");
		expect(readEditorLink(upload.slice(upload.indexOf("?")))).toEqual({
			source: { uploadId: "u-1" },
			tool: "region",
			reopen: "g-9",
		});
		expect(readEditorLink("?generation=g-1&image=x")).toBeNull();
		expect(readEditorLink("")).toBeNull();
	});

	it("tells an edit's tool from its action", () => {
		expect(readEditorToolOf("edit-region")).toBe("region");
		expect(readEditorToolOf("expand")).toBe("expand");
		expect(readEditorToolOf("vary-subtle")).toBeNull();
	});
});
