import { describe, expect, it } from "vitest";
import {
	chooseWindow,
	notificationOptions,
	readClickPath,
	readPushNotification,
} from "./notification-routing";

const ORIGIN = "https://atelier.example";

describe("the service worker's notifications", () => {
	it("shows what a push carries, with its tag and thumbnail, and a plain notice otherwise", () => {
		const pushed = {
			title: "Your images are ready",
			body: "A lighthouse at dusk",
			tag: "generation-1",
			url: "/generations?generation=1",
			image: "/api/images/t.webp",
		};
		expect(notificationOptions(readPushNotification(pushed))).toEqual({
			body: "A lighthouse at dusk",
			tag: "generation-1",
			icon: "/icons/icon-192.png",
			image: "/api/images/t.webp",
			data: { url: "/generations?generation=1" },
		});
		expect(readPushNotification(undefined).title).toBe("Atelier");
		expect(readPushNotification({ ...pushed, url: "https://elsewhere.example/" }).url).toBe(
			"/generations",
		);
	});

	it("opens only paths of this origin", () => {
		expect(readClickPath({ url: "/generations?generation=7" })).toBe("/generations?generation=7");
		expect(readClickPath({ url: "//evil.example/x" })).toBe("/generations");
		expect(readClickPath({ url: "https://evil.example/x" })).toBe("/generations");
		expect(readClickPath(null)).toBe("/generations");
	});

	it("brings forward the focused Atelier tab, else a visible one, else any, never another site's", () => {
		const hidden = { url: `${ORIGIN}/account`, focused: false, visibilityState: "hidden" };
		const visible = { url: `${ORIGIN}/`, focused: false, visibilityState: "visible" };
		const focused = { url: `${ORIGIN}/generations`, focused: true, visibilityState: "visible" };
		const foreign = { url: "https://other.example/", focused: true, visibilityState: "visible" };
		expect(chooseWindow([hidden, visible, focused], ORIGIN)).toBe(focused);
		expect(chooseWindow([hidden, visible, foreign], ORIGIN)).toBe(visible);
		expect(chooseWindow([hidden, foreign], ORIGIN)).toBe(hidden);
		expect(chooseWindow([foreign], ORIGIN)).toBeUndefined();
	});
});
