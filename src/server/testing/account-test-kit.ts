import { expect } from "vitest";
import type { ReceivedMail } from "./smtp-inbox";
import type { TestClient } from "./test-server";

/** The path and query of the one link in a mail, to request through a TestClient. */
function linkPath(mail: ReceivedMail): string {
	expect(mail.links).toHaveLength(1);
	const url = new URL(mail.links[0] ?? "");
	return `${url.pathname}${url.search}`;
}

/** Follows an e-mail link as a browser does and answers where it was sent. */
export async function followLink(client: TestClient, mail: ReceivedMail): Promise<URL> {
	const response = await client.request(linkPath(mail), { redirect: "manual" });
	expect(response.status).toBe(302);
	return new URL(response.headers.get("location") ?? "", "http://localhost:3000");
}

export async function readSessionEmail(client: TestClient): Promise<string | null> {
	const body = (await (await client.request("/api/auth/get-session")).json()) as {
		user: { email: string };
	} | null;
	return body?.user.email ?? null;
}
