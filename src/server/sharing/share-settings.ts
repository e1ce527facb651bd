import type { SharingMode } from "../../shared/history/sharing";
import type { PromptBlocklist } from "../config/prompt-blocklist";
import type { CheckImages } from "../providers/openai/openai-moderation";

/** The operator's switches for shared links (SHARING, SHARE_MAX_DAYS, SHARE_MODERATION). */
export type SharingSettings = {
	mode: SharingMode;
	/** The longest a link may live, in days; undefined lets a link never expire. */
	maxDays: number | undefined;
	/** Checks a public link's images as it is made (SHARE_MODERATION=openai); undefined, none. */
	checkImages: CheckImages | undefined;
	/** Requests a visitor's address, and a link, may make of shared pages and their images. */
	pageLimits: { perAddress: WindowLimit; perLink: WindowLimit };
	/** Reports a visitor's address may send. */
	reportLimit: WindowLimit;
};

export type WindowLimit = { windowSeconds: number; max: number };

/**
 * Public links, any expiry, no image check; a visitor may open 300 shared pages and images a
 * minute, a link may be opened 1,200 times a minute, and an address may send 5 reports an hour.
 */
export const DEFAULT_SHARING_SETTINGS: SharingSettings = {
	mode: "public",
	maxDays: undefined,
	checkImages: undefined,
	pageLimits: {
		perAddress: { windowSeconds: 60, max: 300 },
		perLink: { windowSeconds: 60, max: 1200 },
	},
	reportLimit: { windowSeconds: 3600, max: 5 },
};

/** The most live links a person may hold, so one account cannot fill the table. */
export const MAX_LIVE_SHARES = 200;

export type SharingDeps = {
	settings: SharingSettings;
	promptBlocklist: PromptBlocklist | undefined;
};
