/** Business constants of the product (SPEC.md section 9). */
export const MAX_PROMPT_LENGTH = 500;
export const GENERATION_TIMEOUT_MS = 300_000;
export const POLLING_INTERVAL_MS = 1_500;
export const MAX_RETRIES = 3;
export const RETRY_DELAY_MS = 1_000;
export const ELAPSED_TICK_MS = 1_000;
export const TOAST_DURATION_MS = 3_000;
export const GALLERY_CARD_IMAGES = 4;
export const SKELETON_CARDS = 8;
export const MIN_PASSWORD_LENGTH = 6;
export const DATE_LOCALE = "en-US";
export const ACCOUNT_LABEL = "Free Account";
export const IMAGES_PER_GENERATION = 4;
/** The longest search of the history's prompts the API takes. */
export const MAX_SEARCH_LENGTH = 200;
/** The most generations one bulk delete or one ZIP of many takes. */
export const MAX_BULK_GENERATIONS = 200;

export const PROGRESS = {
	start: 5,
	accepted: 15,
	firstPoll: 20,
	pollStep: 8,
	cap: 95,
	done: 100,
	labelMin: 2,
	labelMax: 98,
} as const;
