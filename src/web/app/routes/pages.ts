// The pages the build prerenders (scripts/prerender-web.mjs), read from the route table
// (src/shared/core/app-routes.ts): each route of a screen in PRERENDERED_SCREENS, and the 404 page. The
// other routes get the app shell from the server, which reads the same table.
import { APP_ROUTES, type AppScreen, PRERENDERED_SCREENS } from "../../../shared/core/app-routes";

type PrerenderedPage = {
	name: string;
	/** The paths the page answers; the 404 page answers every path no route knows. */
	paths: string[];
	/** Where the prerender renders it. */
	renderPath: string;
	status: 200 | 404;
	/**
	 * Source modules (relative to src/web) of the screen's code that loads on demand: the page
	 * names them in `<link rel="modulepreload">`, so they arrive with the first script.
	 */
	screenModules: string[];
};

/**
 * The source modules (relative to src/web) of the code a prerendered screen loads on demand (its
 * lazy screen in router.tsx). Kept here, not in the route table, so the first page's script does
 * not carry them.
 */
const SCREEN_MODULES: Partial<Record<AppScreen, string[]>> = {
	login: ["features/auth/login-page.tsx"],
	signup: ["features/auth/signup-page.tsx"],
	"forgot-password": ["app/routes/account-recovery-routes.tsx"],
};

const NOT_FOUND_PAGE: PrerenderedPage = {
	name: "not-found",
	paths: [],
	renderPath: "/this-page-does-not-exist",
	status: 404,
	screenModules: [],
};

export const PRERENDERED_PAGES: PrerenderedPage[] = [
	...APP_ROUTES.flatMap((route): PrerenderedPage[] =>
		PRERENDERED_SCREENS.includes(route.screen)
			? [
					{
						name: route.screen,
						paths: [route.path],
						renderPath: route.path,
						status: 200,
						screenModules: SCREEN_MODULES[route.screen] ?? [],
					},
				]
			: [],
	),
	NOT_FOUND_PAGE,
];
