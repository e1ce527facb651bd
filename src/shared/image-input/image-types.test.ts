import { describe, expect, it } from "vitest";
import { UPLOAD_CONTENT_TYPES } from "./image-input";
import {
	contentTypeOfExtension,
	extensionOfContentType,
	IMAGE_TYPES,
	INPUT_IMAGE_ACCEPT,
	imageTypeOfFormat,
	inputImageType,
	inputImageTypeOfFormat,
	isInputContentType,
} from "./image-types";

describe("the table of image types", () => {
	it("names each type's extension, content type and sharp format both ways", () => {
		for (const type of Object.values(IMAGE_TYPES)) {
			expect(extensionOfContentType(type.contentType)).toBe(type.extension);
			expect(contentTypeOfExtension(`.${type.extension}`)).toBe(type.contentType);
			expect(imageTypeOfFormat(type.format)).toBe(type);
		}
		expect(imageTypeOfFormat("heif")?.extension).toBe("avif");
		expect(extensionOfContentType("image/jpeg")).toBe("jpg");
	});

	it("reads .jpeg and upper-case extensions, and knows nothing else", () => {
		expect(contentTypeOfExtension(".jpeg")).toBe("image/jpeg");
		expect(contentTypeOfExtension(".PNG")).toBe("image/png");
		expect(contentTypeOfExtension(".svg")).toBeUndefined();
		expect(extensionOfContentType("image/svg+xml")).toBeUndefined();
		expect(imageTypeOfFormat("tiff")).toBeUndefined();
		expect(imageTypeOfFormat(undefined)).toBeUndefined();
	});

	it("takes exactly the upload types as the types an image starts a generation in", () => {
		for (const contentType of UPLOAD_CONTENT_TYPES) {
			expect(isInputContentType(contentType)).toBe(true);
			expect(inputImageType(contentType).contentType).toBe(contentType);
		}
		expect(isInputContentType("image/gif")).toBe(false);
		expect(isInputContentType("image/avif")).toBe(false);
		expect(inputImageTypeOfFormat("webp")).toBe(IMAGE_TYPES.webp);
		expect(inputImageTypeOfFormat("gif")).toBeUndefined();
	});

	it("offers a file picker the input types only", () => {
		expect(INPUT_IMAGE_ACCEPT).toBe("image/png,image/jpeg,image/webp");
	});
});
