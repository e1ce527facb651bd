import type { AspectRatioOption } from "../../../../shared/generations/aspect-ratios";
import { joinClassNames } from "../../../lib/ui/class-names";

/** A small rectangle in the ratio's own shape, so the options can be told apart at a glance. */
export function AspectRatioGlyph({
	option,
	className,
}: {
	option: Pick<AspectRatioOption, "width" | "height">;
	className?: string;
}) {
	const scale = 14 / Math.max(option.width, option.height);
	return (
		<span
			aria-hidden="true"
			className={joinClassNames(
				"inline-flex size-4 shrink-0 items-center justify-center",
				className,
			)}
		>
			<span
				className="rounded-[2px] border-[1.5px] border-current"
				style={{ width: option.width * scale, height: option.height * scale }}
			/>
		</span>
	);
}
