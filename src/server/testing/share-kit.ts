import { expect } from "vitest";
import {
	type CreatedShare,
	CreatedShareSchema,
	type Share,
	ShareListSchema,
} from "../../shared/history/sharing";
import { TestClient as Client, type TestClient, type TestServer } from "./test-server";
import { TEST_BASE_URL } from "./test-settings";

/** What a link is asked for, its options defaulting to a week, display copies, prompt shown. */
export type ShareOptions = {
	imageIndex?: number;
	expires?: "1h" | "1d" | "7d" | "30d" | "never";
	originals?: boolean;
	showPrompt?: boolean;
};

export function shareRequest(generationId: string, options: ShareOptions = {}) {
	return {
		target: {
			generationId,
			...(options.imageIndex === undefined ? {} : { imageIndex: options.imageIndex }),
		},
		expires: options.expires ?? "7d",
		originals: options.originals ?? false,
		showPrompt: options.showPrompt ?? true,
	};
}

/** A link made by its owner in the browser, as the share dialog makes it. */
export async function createShare(
	owner: TestClient,
	generationId: string,
	options: ShareOptions = {},
): Promise<CreatedShare> {
	const response = await owner.request("/api/shares", {
		method: "POST",
		json: shareRequest(generationId, options),
	});
	expect(response.status, await response.clone().text()).toBe(201);
	return CreatedShareSchema.parse(await response.json());
}

/** A link to a board, made by its owner in the browser, as the board page's Share board makes it. */
export async function createBoardShare(
	owner: TestClient,
	boardId: string,
	options: Omit<ShareOptions, "imageIndex"> = {},
): Promise<CreatedShare> {
	const { target: _generation, ...rest } = shareRequest("", options);
	const response = await owner.request("/api/shares", {
		method: "POST",
		json: { ...rest, target: { boardId } },
	});
	expect(response.status, await response.clone().text()).toBe(201);
	return CreatedShareSchema.parse(await response.json());
}

/** The owner's links, as the account page lists them. */
export async function listShares(owner: TestClient): Promise<Share[]> {
	const response = await owner.request("/api/shares");
	expect(response.status).toBe(200);
	return ShareListSchema.parse(await response.json()).items;
}

/** A visitor in a fresh browser: no cookie, their own address. */
export function createVisitor(
	server: Pick<TestServer, "app">,
	address = "198.51.100.7",
): TestClient {
	return new Client(server, address);
}

/** The path of a link's address (its `url` without the origin). */
export function pathOf(share: Pick<CreatedShare, "url">): string {
	expect(share.url.startsWith(`${TEST_BASE_URL}/s/`)).toBe(true);
	return share.url.slice(TEST_BASE_URL.length);
}
