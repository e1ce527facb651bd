import { describe, expect, it } from "vitest";
import { PROVIDER_MESSAGES } from "./provider-messages";

describe("the poll's messages while an image service is tried again", () => {
	it("say why the wait is longer", () => {
		expect(PROVIDER_MESSAGES.busyRetrying).toBe("The image service is busy, retrying");
		expect(PROVIDER_MESSAGES.unreachableRetrying).toBe(
			"The image service cannot be reached, retrying",
		);
	});
});
