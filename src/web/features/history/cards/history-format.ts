import {
	type AspectRatio,
	findAspectRatio,
	toRatioParam,
} from "../../../../shared/generations/aspect-ratios";
import type { Quality } from "../../../../shared/generations/generation-settings";
import {
	generatorQualityHigh,
	generatorQualityLow,
	generatorQualityMedium,
	historySummary,
	historySummaryFiltered,
} from "../../../../shared/i18n/messages";
import { describeAspectRatio as nameAspectRatio } from "../../../lib/ui/aspect-ratio-label";

/** The ratio and its menu label, like "16:9 · Landscape (widescreen)". */
export function describeAspectRatio(aspectRatio: AspectRatio): string {
	return `${toRatioParam(aspectRatio)} · ${nameAspectRatio(findAspectRatio(aspectRatio))}`;
}

const QUALITY_NAMES: Record<Quality, () => string> = {
	low: generatorQualityLow,
	medium: generatorQualityMedium,
	high: generatorQualityHigh,
};

/** A quality level as people read it, like "High" ("Hoch"). */
export function describeQuality(quality: Quality): string {
	return QUALITY_NAMES[quality]();
}

/**
 * The summary line: the total and today's count, like "1,204 generations · 3 today"; of a search
 * or filter, how many match, like "12 generations match · 3 today".
 */
export function formatSummary(
	total: number,
	today: number,
	options: { isFiltered?: boolean } = {},
) {
	return options.isFiltered
		? historySummaryFiltered({ count: total, today })
		: historySummary({ count: total, today });
}
