import type { ImgHTMLAttributes } from "react";
import type { GenerationImage } from "../../../shared/generations/generation-responses";

type ThumbnailProps = {
	image: Pick<GenerationImage, "thumbnailUrl" | "thumbnailWidth" | "thumbnailHeight">;
} & Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "width" | "height" | "alt">;

/**
 * A generation's image as its small thumbnail, at the thumbnail's own size so the page keeps its
 * place while it loads. Unnamed: the button or link around it says what it is.
 */
export function Thumbnail({ image, ...attributes }: ThumbnailProps) {
	return (
		<img
			src={image.thumbnailUrl}
			width={image.thumbnailWidth}
			height={image.thumbnailHeight}
			alt=""
			{...attributes}
		/>
	);
}
