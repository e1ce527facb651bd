import { lazy, Suspense, useEffect, useSyncExternalStore } from "react";
import { TOAST_DURATION_MS } from "../../../shared/core/constants";

type ToastKind = "success" | "error" | "info";

// The toast library is loaded the first time a toast is shown, not with the first page.
let isToasterRequested = false;
const listeners = new Set<() => void>();
let resolveToasterMounted: () => void = () => {};
const toasterMounted = new Promise<void>((resolve) => {
	resolveToasterMounted = resolve;
});

function subscribeToToasterRequest(listener: () => void): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

function readIsToasterRequested(): boolean {
	return isToasterRequested;
}

function requestToaster(): void {
	if (isToasterRequested) return;
	isToasterRequested = true;
	for (const listener of listeners) listener();
}

const loadToaster = () => import("./toaster");
const LazyToaster = lazy(async () => ({ default: (await loadToaster()).Toaster }));

function ToasterMountSignal() {
	// Effects run in tree order, so the toaster before this sibling is listening by now.
	useEffect(() => resolveToasterMounted(), []);
	return null;
}

/** Where toasts appear. Renders nothing until the first toast is asked for. */
export function ToastOutlet() {
	const isRequested = useSyncExternalStore(
		subscribeToToasterRequest,
		readIsToasterRequested,
		readIsToasterRequested,
	);
	if (!isRequested) return null;
	return (
		<Suspense fallback={null}>
			<LazyToaster position="top-center" duration={TOAST_DURATION_MS} richColors closeButton />
			<ToasterMountSignal />
		</Suspense>
	);
}

/**
 * Shows a toast that closes after TOAST_DURATION_MS; needs a ToastOutlet on the page. The same
 * message said again while it shows is one toast, shown anew, not a second: two screens may say
 * the same thing (the history and the generator it opens both say a model is no longer offered).
 */
export async function showToast(kind: ToastKind, message: string): Promise<void> {
	requestToaster();
	const [{ toast }] = await Promise.all([loadToaster(), toasterMounted]);
	toast[kind](message, { id: `${kind}:${message}` });
}

/** How long a toast offering Undo stays. */
export const UNDO_TOAST_MS = 10_000;

/**
 * A success toast with an **Undo** button, shown for ten seconds: deleting to the Trash says so,
 * and Undo puts back what was deleted.
 */
export async function showUndoToast(
	message: string,
	/** Undo, in the page's language: the caller's screen carries the text, not the first page. */
	undoLabel: string,
	onUndo: () => void,
): Promise<void> {
	requestToaster();
	const [{ toast }] = await Promise.all([loadToaster(), toasterMounted]);
	toast.success(message, {
		id: `undo:${message}:${Date.now()}`,
		duration: UNDO_TOAST_MS,
		action: { label: undoLabel, onClick: onUndo },
	});
}
