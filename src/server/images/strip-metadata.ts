import sharp from "sharp";
import { imageTypeOfFormat } from "../../shared/image-input/image-types";
import { runImageWork } from "./image-work";

/**
 * The image encoded again in its own format without any metadata (sharp writes none unless
 * asked): no recipe of ours, and nothing a provider wrote in (ComfyUI's workflow, EXIF). PNG
 * stays lossless; JPEG and WebP are written at quality 95. Undefined for bytes sharp
 * cannot read, which are then not served.
 */
export async function stripImageMetadata(
	data: Uint8Array,
): Promise<{ data: Uint8Array; contentType: string } | undefined> {
	return runImageWork(async () => {
		try {
			const image = sharp(data, { animated: true });
			const metadata = await image.metadata();
			const type = imageTypeOfFormat(metadata.format);
			if (!type) return undefined;
			const encoded =
				type.format === "jpeg"
					? image.jpeg({ quality: 95 })
					: type.format === "webp"
						? image.webp({ quality: 95 })
						: image.toFormat(type.format);
			return { data: new Uint8Array(await encoded.toBuffer()), contentType: type.contentType };
		} catch {
			return undefined;
		}
	});
}
