// The room the generator's settings (Model, Images, Enhance, Advanced settings, Load settings
// from image, Notify me when done and its sound) take in the form. Their code and the models load after the first paint; the first page holds
// this frame of the same height in their place, so nothing below moves when they arrive.

/** The row of Model and Images: a label and a control 2.75rem high. */
export const SETTINGS_ROW_CLASS_NAME = "flex h-[4.375rem] items-start gap-3";

/** The row of Enhance and Translate to English (prompt-enhance.tsx): one line of 2.25rem. */
export const ENHANCE_ROW_CLASS_NAME = "relative flex h-9 items-center";

/**
 * Whether the Enhance row may have its place: the person is signed in, or may be (their session is
 * still being asked for). Whether the server has Enhance is the page's `data-enhance` on <html>,
 * which the server writes (shared/account/boot-state.ts): the prerendered page is written without the
 * config, and the place must be there from its first paint.
 */
export function hasEnhanceRow(options: { isSignedIn: boolean; isAuthLoading: boolean }): boolean {
	return options.isSignedIn || options.isAuthLoading;
}

/** The Enhance row's reserved place, shown only on a page whose server has Enhance. */
const ENHANCE_PLACE_CLASS_NAME = "hidden h-9 [html[data-enhance]_&]:block";

/** The row of Advanced settings and Load settings from image: one line, or two on a phone. */
export const SETTINGS_BAR_CLASS_NAME =
	"grid grid-cols-1 gap-2 sm:grid-cols-[auto_auto] sm:justify-between";

export const SETTINGS_BAR_ITEM_CLASS_NAME = "flex h-9 items-center";

/** The row of Notify me when done and Play a sound: one line, or two on a phone. */
export const NOTIFY_BAR_CLASS_NAME = "grid grid-cols-1 gap-2 sm:grid-cols-[auto_auto] sm:gap-x-6";

/** The settings' place while their code and the models load; the Enhance row's too, where it has one. */
export function SettingsPlaceholder({ isEnhanceRowKept }: { isEnhanceRowKept: boolean }) {
	return (
		<>
			<div aria-hidden="true" className={SETTINGS_ROW_CLASS_NAME} />
			{isEnhanceRowKept ? <div aria-hidden="true" className={ENHANCE_PLACE_CLASS_NAME} /> : null}
			<div aria-hidden="true" className={SETTINGS_BAR_CLASS_NAME}>
				<div className={SETTINGS_BAR_ITEM_CLASS_NAME} />
				<div className={SETTINGS_BAR_ITEM_CLASS_NAME} />
			</div>
			{/* The reference image's row (reference-image-field.tsx), one line high until one is added. */}
			<div aria-hidden="true" className={SETTINGS_BAR_ITEM_CLASS_NAME} />
			<div aria-hidden="true" className={NOTIFY_BAR_CLASS_NAME}>
				<div className={SETTINGS_BAR_ITEM_CLASS_NAME} />
				<div className={SETTINGS_BAR_ITEM_CLASS_NAME} />
			</div>
		</>
	);
}
