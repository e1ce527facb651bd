import { afterEach, describe, expect, it, vi } from "vitest";
import { configureAnalytics, isAnalyticsConfigured, trackEvent } from "./analytics";

describe("analytics", () => {
	afterEach(() => {
		configureAnalytics(undefined);
		vi.restoreAllMocks();
	});

	it("does nothing until a sink is configured", () => {
		const fetchSpy = vi.spyOn(globalThis, "fetch");

		expect(isAnalyticsConfigured()).toBe(false);
		expect(() => trackEvent("generation_started", { aspectRatio: "--ar 1:1" })).not.toThrow();
		expect(fetchSpy).not.toHaveBeenCalled();
	});

	it("hands events to the configured sink, and stops when it is removed", () => {
		const track = vi.fn();
		configureAnalytics({ track });

		trackEvent("generation_completed", { imageCount: 4 });
		trackEvent("image_preview_opened");
		configureAnalytics(undefined);
		trackEvent("generation_failed");

		expect(track.mock.calls).toEqual([
			["generation_completed", { imageCount: 4 }],
			["image_preview_opened", {}],
		]);
	});

	it("keeps going when the sink throws", () => {
		const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
		configureAnalytics({
			track: () => {
				throw new Error("collector is down");
			},
		});

		expect(() => trackEvent("generation_started")).not.toThrow();
		expect(warn).toHaveBeenCalledOnce();
	});
});
