import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { buildOpenApiDocument } from "./openapi-document";

/**
 * Where the build puts Scalar's standalone API reference (scripts/copy-api-reference.mjs): a file
 * of the web app, served from our own origin like the rest of it, since Atelier runs offline.
 */
export const API_REFERENCE_SCRIPT = "/api-reference/scalar-standalone.js";

/**
 * Scalar's settings: nothing fetched from elsewhere (fonts, telemetry, its hosted client and AI
 * agent), and the document from this server. The page's Content-Security-Policy (script, style
 * and connections from 'self' only) forbids anything else anyway.
 */
const START_SCRIPT = `Scalar.createApiReference("#api-reference", ${JSON.stringify({
	url: "/api/openapi.json",
	withDefaultFonts: false,
	telemetry: false,
	hideClientButton: true,
	showDeveloperTools: "never",
	agent: { disabled: true },
	theme: "default",
})});
`;

const DOCS_PAGE = `<!doctype html>
<html lang="en">
	<head>
		<meta charset="utf-8" />
		<meta name="viewport" content="width=device-width, initial-scale=1" />
		<title>Atelier API reference</title>
	</head>
	<body>
		<main id="api-reference"><noscript>The reference needs JavaScript; the document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</noscript></main>
		<script src="${API_REFERENCE_SCRIPT}"></script>
		<script src="/api/docs/start.js"></script>
	</body>
</html>
`;

/**
 * `GET /api/openapi.json` (the document, built once) and `GET /api/docs`, its reference page: a
 * page of its own outside the web app, so the renderer is loaded there and nowhere else.
 */
export function createApiDocsRoutes(options: { baseUrl: string }) {
	const app = new Hono<AppEnv>();
	const document = JSON.stringify(buildOpenApiDocument({ baseUrl: options.baseUrl }));

	app.get("/openapi.json", (context) => {
		context.header("cache-control", "no-cache");
		return context.body(document, 200, { "content-type": "application/json; charset=utf-8" });
	});
	app.get("/docs", (context) => context.html(DOCS_PAGE));
	app.get("/docs/start.js", (context) =>
		context.body(START_SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" }),
	);
	return app;
}
