import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { BOOT_STATE_ELEMENT_ID } from "../../../shared/account/boot-state";
import { SESSION_QUERY_KEY } from "../../features/auth/auth-session";
import { PUBLIC_CONFIG_QUERY_KEY } from "../../lib/api/public-config";
import { readBootState, seedQueryClient } from "./boot-state";

function putBootState(text: string): void {
	const element = document.createElement("script");
	element.type = "application/json";
	element.id = BOOT_STATE_ELEMENT_ID;
	element.textContent = text;
	document.head.append(element);
}

afterEach(() => {
	document.getElementById(BOOT_STATE_ELEMENT_ID)?.remove();
});

describe("the boot state a page carries", () => {
	it("is read from its JSON element and answers the session and config queries at once", () => {
		putBootState(
			'{"session":"signed-out","config":{"googleEnabled":true,"imageProvider":"local","emailVerificationRequired":true,"modelChoice":true,"sharing":"signed-in","shareMaxDays":7}}',
		);
		const state = readBootState(document);
		expect(state).toEqual({
			session: "signed-out",
			config: {
				googleEnabled: true,
				imageProvider: "local",
				emailVerificationRequired: true,
				modelChoice: true,
				trash: false,
				sharing: "signed-in",
				shareMaxDays: 7,
				enhance: false,
			},
		});

		const queryClient = new QueryClient();
		seedQueryClient(queryClient, state);
		expect(queryClient.getQueryData(SESSION_QUERY_KEY)).toBeNull();
		expect(queryClient.getQueryData(PUBLIC_CONFIG_QUERY_KEY)).toEqual(state?.config);
	});

	it("leaves the session to its lookup when the request carried a session cookie", () => {
		putBootState('{"session":"unknown","config":{"googleEnabled":false,"imageProvider":"fal"}}');
		const queryClient = new QueryClient();
		seedQueryClient(queryClient, readBootState(document));
		expect(queryClient.getQueryState(SESSION_QUERY_KEY)).toBeUndefined();
		expect(queryClient.getQueryData(PUBLIC_CONFIG_QUERY_KEY)).toEqual({
			googleEnabled: false,
			imageProvider: "fal",
			emailVerificationRequired: false,
			modelChoice: false,
			trash: false,
			sharing: "public",
			shareMaxDays: null,
			enhance: false,
		});
	});

	it("is absent when the element is missing or unreadable, and then seeds nothing", () => {
		expect(readBootState(document)).toBeUndefined();
		for (const text of ["{", '{"session":"maybe","config":{}}', '{"session":"unknown"}']) {
			putBootState(text);
			expect(readBootState(document)).toBeUndefined();
			document.getElementById(BOOT_STATE_ELEMENT_ID)?.remove();
		}
		const queryClient = new QueryClient();
		seedQueryClient(queryClient, undefined);
		expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
	});
});
