// Every route of the web app, in one table that three readers share: the browser's router
// (src/web/app/routes/router.tsx maps each screen to its component), the build's prerender
// (src/web/app/routes/pages.ts, scripts/prerender-web.mjs) and the server, which answers each route with
// its prerendered page or the app shell and only an unknown path with the 404 page
// (src/server/http/static-site.ts). Plain data, so the server reads it without React.
// docs/decisions/012-prerendering-and-hydration.md.

/** The screens of the app; router.tsx gives each its component. */
export type AppScreen =
	| "generator"
	| "generations"
	| "boards"
	| "board"
	| "trash"
	| "editor"
	| "account"
	| "audit-log"
	| "people"
	| "usage"
	| "shares"
	| "login"
	| "signup"
	| "forgot-password"
	| "reset-password"
	| "verify-email";

/**
 * Who may see a route: `signed-in` sends anyone else to /login, `signed-out` sends a signed-in
 * person home (the router's guards). A screen may narrow it further (the audit log and usage, for
 * the administrator only, check that themselves).
 */
export type RouteAccess = "anyone" | "signed-in" | "signed-out";

/** The frame around the screen: the site's header and footer, or the centred sign-in card. */
export type RouteLayout = "site" | "auth";

type AppRoute = {
	/** The path, from the root; `:name` stands for one segment. */
	path: string;
	screen: AppScreen;
	layout: RouteLayout;
	access: RouteAccess;
};

/** A row of the table, written short: the first page carries it (docs/decisions/005-first-load-budget.md). */
function route(
	path: string,
	screen: AppScreen,
	layout: RouteLayout,
	access: RouteAccess,
): AppRoute {
	return { path, screen, layout, access };
}

/**
 * SPEC.md section 2, plus the mask editor, the account screens and the administrator's audit log,
 * People, usage and shared links.
 */
export const APP_ROUTES: readonly AppRoute[] = [
	route("/", "generator", "site", "anyone"),
	route("/generations", "generations", "site", "signed-in"),
	route("/boards", "boards", "site", "signed-in"),
	route("/boards/:boardId", "board", "site", "signed-in"),
	route("/trash", "trash", "site", "signed-in"),
	route("/edit", "editor", "site", "signed-in"),
	route("/account", "account", "site", "signed-in"),
	route("/admin/audit-log", "audit-log", "site", "signed-in"),
	route("/admin/usage", "usage", "site", "signed-in"),
	route("/admin/people", "people", "site", "signed-in"),
	route("/admin/shares", "shares", "site", "signed-in"),
	route("/login", "login", "auth", "signed-out"),
	route("/signup", "signup", "auth", "signed-out"),
	// Reached from links and e-mails, signed in or not. Forgot-password needs nothing but its form;
	// reset and verify read their query (the token, the verification's outcome), which the
	// prerender cannot, and are rendered in the browser.
	route("/forgot-password", "forgot-password", "auth", "anyone"),
	route("/reset-password", "reset-password", "auth", "anyone"),
	route("/verify-email", "verify-email", "auth", "anyone"),
];

/**
 * The screens the build renders to HTML, for each boot state: those whose first render needs
 * neither the session nor the query string, a signed-out visitor's first screens
 * (src/web/app/routes/pages.ts names the code each loads on demand). The server answers every other
 * route with the app shell, index.html, which the browser renders. Apart from the rows, which the
 * first page carries, since only the build and the server read it.
 */
export const PRERENDERED_SCREENS: readonly AppScreen[] = [
	"generator",
	"login",
	"signup",
	"forgot-password",
];

/**
 * The address of each screen, from the table: links and navigations take theirs from here and
 * never write one by hand.
 */
export const APP_PATHS = Object.fromEntries(
	APP_ROUTES.map((entry) => [entry.screen, entry.path]),
) as Readonly<Record<AppScreen, string>>;

function matchesPath(pattern: string, pathname: string): boolean {
	const expected = pattern.split("/");
	const actual = pathname.split("/");
	return (
		expected.length === actual.length &&
		expected.every(
			(segment, index) => segment === actual[index] || (segment.startsWith(":") && actual[index]),
		)
	);
}

/** The route `pathname` (without a trailing slash, except the root) belongs to, if any. */
export function findAppRoute(pathname: string): AppRoute | undefined {
	return APP_ROUTES.find((route) => matchesPath(route.path, pathname));
}
