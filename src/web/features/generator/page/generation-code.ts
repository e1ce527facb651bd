// The first page holds what the empty screen needs: the form and the empty state. What only a
// generation shows (its progress, its results, the full-size preview) and the flow's own code
// load on demand: once the person shows intent (focus or pointer on the form), once the page is
// idle for someone signed in, or on first use, whichever comes first.

/** The flow's code (requests, polling, parsing). */
export const loadGenerationFlow = () => import("../flow/follow-generation");
export const loadGenerationProgress = () => import("../results/generation-progress");
export const loadGenerationResults = () => import("../results/generation-results");
/** What can be done about a failure (sign in, try again), shown under its message. */
export const loadErrorFollowUp = () => import("../results/error-follow-up");
export const loadImagePreview = () => import("../results/image-preview");
/** The settings beside the prompt (Model, Images, Advanced settings), asked for after the first paint. */
export const loadGenerationControls = () => import("../form/generation-controls");
/** The notes under Generate: the shortcuts, the offline engine's (generator-page.tsx). */
export const loadGeneratorNotes = () => import("../results/generator-notes");
/** A batch's start and its results, shown together (batch-results.tsx). */
export const loadBatchResults = () => import("../results/batch-results");
/** Reading a dropped or chosen image's recipe into the form. */
export const loadImageSettings = () => import("../reference/image-settings");

/** Fetches what a generation needs before it is asked for, so the first click answers at once. */
export function prefetchGenerationCode(): void {
	for (const load of [
		loadGenerationFlow,
		loadGenerationProgress,
		loadGenerationResults,
		loadErrorFollowUp,
	]) {
		// A prefetch is a hint: if it fails, the real use tries again and reports any failure.
		load().catch(() => {});
	}
}
