import sharp from "sharp";
import { runImageWork } from "../../images/image-work";
import type { InputImage } from "../types";

/**
 * Atelier's mask in the convention of OpenAI's edit endpoint: a PNG with an alpha channel of the
 * image's size, transparent where the image may change and opaque where it must stay (white
 * everywhere, the alpha the inverse of the mask's grey).
 */
export async function toOpenAiMask(mask: InputImage): Promise<Buffer> {
	const { data: grey, info } = await runImageWork(() =>
		sharp(mask.data).extractChannel(0).raw().toBuffer({ resolveWithObject: true }),
	);
	const rgba = Buffer.alloc(info.width * info.height * 4, 255);
	for (let pixel = 0; pixel < info.width * info.height; pixel++) {
		rgba[pixel * 4 + 3] = 255 - (grey[pixel] ?? 0);
	}
	return runImageWork(() =>
		sharp(rgba, { raw: { width: info.width, height: info.height, channels: 4 } })
			.png()
			.toBuffer(),
	);
}
