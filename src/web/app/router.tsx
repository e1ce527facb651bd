import { Suspense } from "react";
import { type RouteObject, useRoutes } from "react-router";
import { RequireAdmin, RequireSignedIn, RequireSignedOut } from "../features/auth/route-guards";
import { AUDIT_LOG_PATH } from "../lib/app-paths";
import { loadAuthClient } from "../lib/auth-client";
import { AuthLayout } from "./auth-layout";
import { GeneratorRoute } from "./generator-route";
import { LayoutShell } from "./layout-shell";
import { lazyScreen } from "./lazy-screen";
import { NotFoundPage } from "./not-found-page";
import { PageLoading } from "./page-loading";

/** These screens exist to call the auth client: fetch it alongside them, not on the first click. */
function warmUpAuthClient(): void {
	// A hint only: if it fails, the first action tries again and reports any failure.
	loadAuthClient().catch(() => {});
}

const GenerationsRoute = lazyScreen(
	async () => (await import("./generations-route")).GenerationsRoute,
);
const AuditLogPage = lazyScreen(async () => (await import("./generations-route")).AuditLogPage);
const LoginPage = lazyScreen(async () => {
	warmUpAuthClient();
	return (await import("../features/auth/login-page")).LoginPage;
});
const SignupPage = lazyScreen(async () => {
	warmUpAuthClient();
	return (await import("../features/auth/signup-page")).SignupPage;
});

/**
 * Every route of the web app (SPEC.md section 2, and the administrator's audit log). Login,
 * signup, the history and the audit log are loaded on demand so the first page stays small.
 */
const appRoutes: RouteObject[] = [
	{
		path: "/",
		Component: LayoutShell,
		children: [
			{ index: true, Component: GeneratorRoute },
			{
				Component: RequireSignedIn,
				children: [{ path: "generations", Component: GenerationsRoute }],
			},
			{
				Component: RequireAdmin,
				children: [{ path: AUDIT_LOG_PATH, Component: AuditLogPage }],
			},
			{ path: "*", Component: NotFoundPage },
		],
	},
	{
		Component: AuthLayout,
		children: [
			{
				Component: RequireSignedOut,
				children: [
					{ path: "login", Component: LoginPage },
					{ path: "signup", Component: SignupPage },
				],
			},
		],
	},
];

/**
 * The screen for the router's location. React Router runs in declarative mode: the app loads its
 * data with TanStack Query, and the data router's code would cost the first page about 17 kB
 * (docs/decisions/005-first-load-budget.md). A screen whose code is still on its way on the first
 * load shows PageLoading; later, the screen being left stays while the header shows a loading bar.
 */
export function AppRoutes() {
	const screen = useRoutes(appRoutes);
	return <Suspense fallback={<PageLoading />}>{screen}</Suspense>;
}
