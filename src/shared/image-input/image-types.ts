import { UPLOAD_CONTENT_TYPES, type UploadContentType } from "./image-input";

// The one table of the image types Atelier keeps: each one's content type, file extension and
// sharp's name for its format. Storage, uploads, reference images, downloads and providers read
// it; which of them people may upload is UPLOAD_CONTENT_TYPES (image-input.ts).

export const IMAGE_TYPES = {
	png: { contentType: "image/png", extension: "png", format: "png" },
	jpeg: { contentType: "image/jpeg", extension: "jpg", format: "jpeg" },
	webp: { contentType: "image/webp", extension: "webp", format: "webp" },
	gif: { contentType: "image/gif", extension: "gif", format: "gif" },
	avif: { contentType: "image/avif", extension: "avif", format: "heif" },
} as const;

export type ImageType = (typeof IMAGE_TYPES)[keyof typeof IMAGE_TYPES];

const ALL_TYPES: readonly ImageType[] = Object.values(IMAGE_TYPES);

/** A type an image that starts a generation may have (an upload, a reference): PNG, JPEG, WebP. */
export type InputImageType = Extract<ImageType, { contentType: UploadContentType }>;

const INPUT_TYPES = ALL_TYPES.filter((type): type is InputImageType =>
	(UPLOAD_CONTENT_TYPES as readonly string[]).includes(type.contentType),
);

/** A file picker's `accept` for an image that starts a generation, or whose recipe is read. */
export const INPUT_IMAGE_ACCEPT: string = INPUT_TYPES.map((type) => type.contentType).join(",");

/**
 * How large an image downloaded from a provider may be (its URL, or the bytes its API answers)
 * unless IMAGE_DOWNLOAD_MAX_BYTES says otherwise.
 */
export const DEFAULT_IMAGE_DOWNLOAD_MAX_BYTES = 25 * 1024 * 1024;

/** The type of an image sharp reads as this format, if it is one Atelier keeps. */
export function imageTypeOfFormat(format: string | undefined): ImageType | undefined {
	return ALL_TYPES.find((type) => type.format === format);
}

/** The file extension of a content type, if it is one Atelier keeps. */
export function extensionOfContentType(contentType: string): string | undefined {
	return ALL_TYPES.find((type) => type.contentType === contentType)?.extension;
}

/** The content type of a file extension (`.jpeg` too), if it is one Atelier keeps. */
export function contentTypeOfExtension(extension: string): string | undefined {
	const name = extension.replace(/^\./, "").toLowerCase();
	if (name === "jpeg") return IMAGE_TYPES.jpeg.contentType;
	return ALL_TYPES.find((type) => type.extension === name)?.contentType;
}

/** Every extension Atelier names its images with. */
export const IMAGE_EXTENSIONS: readonly string[] = ALL_TYPES.map((type) => type.extension);

/** The type of an input image's content type (PNG, JPEG or WebP). */
export function inputImageType(contentType: UploadContentType): InputImageType {
	const type = INPUT_TYPES.find((candidate) => candidate.contentType === contentType);
	if (!type) throw new Error(`${contentType} is not in the table of image types`);
	return type;
}

/** The input type sharp reads as this format, or undefined for any other format. */
export function inputImageTypeOfFormat(format: string | undefined): InputImageType | undefined {
	return INPUT_TYPES.find((type) => type.format === format);
}

/** Whether a content type is one an image that starts a generation may have. */
export function isInputContentType(contentType: string): contentType is UploadContentType {
	return INPUT_TYPES.some((type) => type.contentType === contentType);
}
