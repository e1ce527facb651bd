import { Star } from "lucide-react";
import {
	historyAddFavourite,
	historyFavourite,
	historyRemoveFavourite,
} from "../../../../shared/i18n/messages";
import { joinClassNames } from "../../../lib/ui/class-names";

type FavoriteButtonProps = {
	isFavorite: boolean;
	onToggle: () => void;
	/** On a card's image, an icon in a round chip; in the preview, a labelled button. */
	look: "overlay" | "labelled";
};

const LOOK_CLASS_NAMES = {
	overlay:
		"size-9 justify-center rounded-full bg-white/90 shadow-sm ring-1 ring-slate-200 hover:bg-white",
	labelled:
		"h-9 gap-1.5 rounded-lg bg-white px-3 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-200 ring-inset hover:bg-slate-50",
} as const;

/** The star of a generation: a toggle button named "Favourite", pressed when it is one. */
export function FavoriteButton({ isFavorite, onToggle, look }: FavoriteButtonProps) {
	return (
		<button
			type="button"
			aria-pressed={isFavorite}
			aria-label={look === "overlay" ? historyFavourite() : undefined}
			title={isFavorite ? historyRemoveFavourite() : historyAddFavourite()}
			onClick={onToggle}
			className={joinClassNames(
				"inline-flex shrink-0 cursor-pointer items-center transition-colors",
				LOOK_CLASS_NAMES[look],
			)}
		>
			<Star
				aria-hidden="true"
				className={joinClassNames(
					"size-4",
					isFavorite ? "fill-amber-400 text-amber-600" : "text-slate-600",
				)}
			/>
			{look === "labelled" ? historyFavourite() : null}
		</button>
	);
}
