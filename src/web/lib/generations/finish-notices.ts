// Word that a generation finished for someone who is not looking: the browser's notification
// (when they turned "Notify me when done" on and the browser allows it) and an optional short tone.
// The choices are remembered in localStorage. Two sources, one notification a generation: the
// generator for the generation it follows, and the header's poll of the active generations
// (lib/generations/active-generations.ts) for the others; both tag it with the generation's id, so even in two
// tabs the browser shows one. Loaded with the generation flow or that poll, not the first page.

import { finishNoticeTag, finishNoticeTitle } from "../../../shared/notifications/finish-notice";

const NOTIFY_KEY = "atelier:notify-when-done";
const SOUND_KEY = "atelier:notify-sound";

/** A remembered switch; off when storage is unavailable or holds anything else. */
function readSwitch(key: string): boolean {
	try {
		return window.localStorage.getItem(key) === "on";
	} catch {
		return false;
	}
}

function writeSwitch(key: string, isOn: boolean): void {
	try {
		if (isOn) window.localStorage.setItem(key, "on");
		else window.localStorage.removeItem(key);
	} catch {
		// Without storage the choice lasts as long as the page; nothing worse.
	}
}

/** Whether this browser can show notifications at all. */
export function canNotify(): boolean {
	return typeof window !== "undefined" && "Notification" in window;
}

/** "Notify me when done": remembered, and only on while the browser still allows it. */
export function readNotifyChoice(): boolean {
	return readSwitch(NOTIFY_KEY) && canNotify() && Notification.permission === "granted";
}

export function readSoundChoice(): boolean {
	return readSwitch(SOUND_KEY);
}

export function rememberSoundChoice(isOn: boolean): void {
	writeSwitch(SOUND_KEY, isOn);
}

/** What the switch came to: on, off as asked, or off because the browser will not notify. */
export type NotifyChoice =
	| { isOn: true }
	| { isOn: false; reason: "turned-off" | "denied" | "unsupported" };

/**
 * Turns "Notify me when done" on or off. Turning it on asks the browser for permission (only
 * then, never before); refused, it stays off and says why.
 */
export async function chooseNotify(isOn: boolean): Promise<NotifyChoice> {
	if (!isOn) {
		writeSwitch(NOTIFY_KEY, false);
		return { isOn: false, reason: "turned-off" };
	}
	if (!canNotify()) return { isOn: false, reason: "unsupported" };
	const permission =
		Notification.permission === "default"
			? await Notification.requestPermission()
			: Notification.permission;
	const isGranted = permission === "granted";
	writeSwitch(NOTIFY_KEY, isGranted);
	return isGranted ? { isOn: true } : { isOn: false, reason: "denied" };
}

const TONE_HZ = 880;
const TONE_SECONDS = 0.25;

/** A short soft tone through WebAudio; silent where the browser has no audio or refuses it. */
function playTone(): void {
	try {
		const context = new AudioContext();
		const oscillator = context.createOscillator();
		const gain = context.createGain();
		oscillator.frequency.value = TONE_HZ;
		gain.gain.setValueAtTime(0.15, context.currentTime);
		gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + TONE_SECONDS);
		oscillator.connect(gain).connect(context.destination);
		oscillator.start();
		oscillator.stop(context.currentTime + TONE_SECONDS);
		oscillator.onended = () => void context.close();
	} catch {
		// A tone is a courtesy: no audio, no tone.
	}
}

// The generations this page's generator follows (it says itself when they end), and those whose end
// this page has already announced, by id.
const followedHere = new Set<string>();
const announced = new Set<string>();

/** The generator follows `generationId` until `signal` aborts: the header's poll leaves it alone. */
export function followHere(generationId: string, signal: AbortSignal): void {
	if (signal.aborted) return;
	followedHere.add(generationId);
	signal.addEventListener("abort", () => followedHere.delete(generationId), { once: true });
}

/** Whether this page has said, or will say, itself that `generationId` ended. */
export function isAnnouncedHere(generationId: string): boolean {
	return followedHere.has(generationId) || announced.has(generationId);
}

type FinishedGeneration = {
	outcome: "done" | "failed";
	prompt: string;
	generationId: string;
};

/**
 * The notification that `generation` ended, when the page is hidden and the person asked for one.
 * Clicking it brings this tab forward and then calls `onOpen`, if given, to show the result.
 */
function raiseNotice(generation: FinishedGeneration, onOpen?: () => void): void {
	if (document.visibilityState !== "hidden" || !readNotifyChoice()) return;
	try {
		const notification = new Notification(finishNoticeTitle(generation.outcome), {
			body: generation.prompt,
			// The tag a push of the same generation carries too: one replaces the other.
			tag: finishNoticeTag(generation.generationId),
			icon: "/icons/icon-192.png",
		});
		notification.onclick = () => {
			window.focus();
			notification.close();
			onOpen?.();
		};
	} catch {
		// Some browsers only notify from a service worker; the tab's title still says it.
	}
}

/**
 * The generator's generation finished. When the page is hidden, raises a notification if the
 * person asked for one (clicking it brings this tab forward, where the generator shows the result)
 * and plays the tone if they turned it on.
 */
export function noticeFinished(generation: FinishedGeneration): void {
	announced.add(generation.generationId);
	if (document.visibilityState !== "hidden") return;
	if (readSoundChoice()) playTone();
	raiseNotice(generation);
}

/**
 * One of the person's generations that this page does not follow finished (started in another
 * tab, on another device, through the API, or left behind on the generator). Only a notification,
 * on the same terms: a tone from every open tab would ring several times for one generation.
 */
export function noticeFinishedElsewhere(generation: FinishedGeneration, onOpen: () => void): void {
	if (isAnnouncedHere(generation.generationId)) return;
	announced.add(generation.generationId);
	raiseNotice(generation, onOpen);
}
