// The screens a signed-out visitor can reach first, prerendered to HTML at build time
// (scripts/prerender-web.mjs) and hydrated in the browser, and the routes rendered in the browser
// only. Keep in step with the route table in router.tsx.

export type PrerenderedPage = {
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

export const PRERENDERED_PAGES: PrerenderedPage[] = [
	{ name: "home", paths: ["/"], renderPath: "/", status: 200, screenModules: [] },
	{
		name: "login",
		paths: ["/login"],
		renderPath: "/login",
		status: 200,
		screenModules: ["features/auth/login-page.tsx"],
	},
	{
		name: "signup",
		paths: ["/signup"],
		renderPath: "/signup",
		status: 200,
		screenModules: ["features/auth/signup-page.tsx"],
	},
	{
		name: "not-found",
		paths: [],
		renderPath: "/this-page-does-not-exist",
		status: 404,
		screenModules: [],
	},
];

/** Routes whose screen needs the session (the history): served the app shell, index.html. */
export const SHELL_PATHS = ["/generations"];
