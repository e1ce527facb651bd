import type { ServerType } from "@hono/node-server";

/**
 * How long the server keeps an idle kept-alive connection open: longer than the clients and
 * proxies in front keep theirs (a load balancer's idle timeout is commonly 60 s), so that they
 * close it first. With Node's 5 s, a client sending its next request on a connection idle for
 * about that long met the server closing it at that moment, and read ECONNRESET.
 */
export const IDLE_CONNECTION_TIMEOUT_MS = 65_000;

/** Holds idle connections open for IDLE_CONNECTION_TIMEOUT_MS (an HTTP/1.1 server's setting). */
export function keepIdleConnectionsOpen(server: ServerType): void {
	// Node's headersTimeout (60 s) counts from a request's start, not from the idle before it, so
	// it needs no change to sit beside a longer idle.
	if ("keepAliveTimeout" in server) server.keepAliveTimeout = IDLE_CONNECTION_TIMEOUT_MS;
}
