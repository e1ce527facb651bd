// An aspect ratio's name in the page's language. shared/generations/aspect-ratios.ts keeps the English names,
// which the history's filters and the server use; the catalogue's English is the same (a test
// holds them together).
import type { AspectRatio, AspectRatioOption } from "../../../shared/generations/aspect-ratios";
import {
	generatorRatioClassicLandscape,
	generatorRatioClassicPortrait,
	generatorRatioSquare,
	generatorRatioUltrawide,
	generatorRatioVertical,
	generatorRatioWidescreen,
} from "../../../shared/i18n/messages";

const RATIO_LABELS: Record<AspectRatio, () => string> = {
	"--ar 1:1": generatorRatioSquare,
	"--ar 3:2": generatorRatioClassicLandscape,
	"--ar 16:9": generatorRatioWidescreen,
	"--ar 21:9": generatorRatioUltrawide,
	"--ar 2:3": generatorRatioClassicPortrait,
	"--ar 9:16": generatorRatioVertical,
};

/** "Square", "Quadrat": the ratio's name as the generator shows it. */
export function describeAspectRatio(option: AspectRatioOption): string {
	return RATIO_LABELS[option.value]();
}
