import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { type Auth, CLIENT_IP_HEADER } from "./auth";
import { translateAuthAnswer } from "./auth-messages";

/** The client's address: the socket's, or the last X-Forwarded-For hop behind a trusted proxy. */
function resolveClientIp(request: Request, incoming: unknown, trustProxy: boolean): string {
	if (trustProxy) {
		// The proxy appends the address it saw; anything to its left could be forged by the client.
		const forwarded = request.headers.get("x-forwarded-for");
		const last = forwarded?.split(",").at(-1)?.trim();
		if (last) return last;
	}
	return (incoming as string | undefined) ?? "unknown";
}

/** The client's address, as Better Auth and our own per-address limits key it. */
export function readClientIp(context: Context, trustProxy: boolean): string {
	let incoming: string | undefined;
	try {
		incoming = getConnInfo(context).remote.address;
	} catch {
		incoming = undefined;
	}
	return resolveClientIp(context.req.raw, incoming, trustProxy);
}

/** The request's headers plus the client address Better Auth keys its rate limits and sessions by. */
export function withClientIp(context: Context, trustProxy: boolean): Headers {
	const headers = new Headers(context.req.raw.headers);
	headers.set(CLIENT_IP_HEADER, readClientIp(context, trustProxy));
	return headers;
}

/** Hands the request to Better Auth's own handler; its refusals answer in the request's language. */
export async function forwardToAuth(
	auth: Auth,
	context: Context,
	trustProxy: boolean,
): Promise<Response> {
	const request = new Request(context.req.raw, { headers: withClientIp(context, trustProxy) });
	return translateAuthAnswer(request, await auth.handler(request));
}
