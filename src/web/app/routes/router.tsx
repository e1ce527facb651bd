import { type ComponentType, Suspense, useEffect, useState } from "react";
import { matchRoutes, type RouteObject, useRoutes } from "react-router";
import { APP_HYDRATED_EVENT } from "../../../shared/account/boot-state";
import {
	APP_PATHS,
	APP_ROUTES,
	type AppScreen,
	type RouteAccess,
	type RouteLayout,
} from "../../../shared/core/app-routes";
import { RequireSignedIn, RequireSignedOut } from "../../features/auth/route-guards";
import { loadAuthClient } from "../../lib/account/auth-client";
import { AuthLayout } from "../shell/auth-layout";
import { LayoutShell } from "../shell/layout-shell";
import { type LazyScreen, lazyScreen } from "../shell/lazy-screen";
import { GeneratorRoute } from "./generator-route";
import { PageLoading } from "./page-loading";

/**
 * A screen that exists to call the auth client: the client is fetched alongside it, not on the
 * first click (a hint only: if it fails, the first action tries again and reports any failure).
 */
const authScreen = (load: () => Promise<ComponentType>) =>
	lazyScreen(() => {
		loadAuthClient().catch(() => {});
		return load();
	});

const NotFoundPage = lazyScreen(async () => (await import("./not-found-page")).NotFoundPage);
// A module with several screens is imported from one place: each import() costs the first page
// its loader and the list of chunks it preloads (docs/decisions/005-first-load-budget.md).
const loadGenerationsRoutes = () => import("./generations-route");
const loadAdminRoutes = () => import("./admin-routes");
const loadRecoveryRoutes = () => import("./account-recovery-routes");

const GenerationsRoute = lazyScreen(async () => (await loadGenerationsRoutes()).GenerationsRoute);
const AuditLogRoute = lazyScreen(async () => (await loadGenerationsRoutes()).AuditLogRoute);
const BoardsRoute = lazyScreen(async () => (await loadGenerationsRoutes()).BoardsRoute);
const BoardRoute = lazyScreen(async () => (await loadGenerationsRoutes()).BoardRoute);
const TrashRoute = lazyScreen(async () => (await loadGenerationsRoutes()).TrashRoute);
const PeopleRoute = lazyScreen(async () => (await loadAdminRoutes()).PeopleRoute);
const UsageRoute = lazyScreen(async () => (await loadAdminRoutes()).UsageRoute);
const SharesRoute = lazyScreen(async () => (await loadAdminRoutes()).SharesRoute);
const LoginPage = authScreen(
	async () => (await import("../../features/auth/login-page")).LoginPage,
);
const SignupPage = authScreen(
	async () => (await import("../../features/auth/signup-page")).SignupPage,
);
const EditorRoute = lazyScreen(async () => (await loadGenerationsRoutes()).EditorRoute);
const AccountRoute = authScreen(async () => (await import("./account-route")).AccountRoute);
const ForgotPasswordRoute = authScreen(
	async () => (await loadRecoveryRoutes()).ForgotPasswordRoute,
);
const ResetPasswordRoute = authScreen(async () => (await loadRecoveryRoutes()).ResetPasswordRoute);
const VerifyEmailRoute = authScreen(async () => (await loadRecoveryRoutes()).VerifyEmailRoute);

/** The component of each screen of the route table (src/shared/core/app-routes.ts). */
const SCREENS: Record<AppScreen, ComponentType> = {
	generator: GeneratorRoute,
	generations: GenerationsRoute,
	boards: BoardsRoute,
	board: BoardRoute,
	trash: TrashRoute,
	editor: EditorRoute,
	account: AccountRoute,
	"audit-log": AuditLogRoute,
	people: PeopleRoute,
	usage: UsageRoute,
	shares: SharesRoute,
	login: LoginPage,
	signup: SignupPage,
	"forgot-password": ForgotPasswordRoute,
	"reset-password": ResetPasswordRoute,
	"verify-email": VerifyEmailRoute,
};

const GUARDS: Record<RouteAccess, ComponentType | undefined> = {
	anyone: undefined,
	"signed-in": RequireSignedIn,
	"signed-out": RequireSignedOut,
};

/** The table's routes of one layout, each under the guard of its access. */
function routesOf(layout: RouteLayout): RouteObject[] {
	const routes = APP_ROUTES.filter((route) => route.layout === layout);
	return (Object.keys(GUARDS) as RouteAccess[]).flatMap((access): RouteObject[] => {
		const children = routes
			.filter((route) => route.access === access)
			.map(
				(route): RouteObject =>
					route.path === APP_PATHS.generator
						? { index: true, Component: SCREENS[route.screen] }
						: { path: route.path, Component: SCREENS[route.screen] },
			);
		const guard = GUARDS[access];
		if (children.length === 0) return [];
		return guard ? [{ Component: guard, children }] : children;
	});
}

/**
 * Every route of the web app, from the route table. Everything but the generator is loaded on
 * demand so the first page stays small.
 */
const appRoutes: RouteObject[] = [
	{
		path: "/",
		Component: LayoutShell,
		children: [...routesOf("site"), { path: "*", Component: NotFoundPage }],
	},
	{ Component: AuthLayout, children: routesOf("auth") },
];

/**
 * Tells a prerendered page's loader (first-paint-loader.ts) that the screen is the app's now, so
 * that it clicks again a button clicked before. Inside the screens' Suspense boundary: React
 * hydrates that boundary after the root, and only then has the screen's buttons. One render
 * later: the screen's own mount effects (the text typed before hydration) update its state in
 * that render, and a click replayed before it would find the fields' old state.
 */
function AnnounceHydrated() {
	const [isSettled, setIsSettled] = useState(false);
	useEffect(() => {
		if (isSettled) document.dispatchEvent(new Event(APP_HYDRATED_EVENT));
		else setIsSettled(true);
	}, [isSettled]);
	return null;
}

/**
 * The screen for the router's location. React Router runs in declarative mode: the app loads its
 * data with TanStack Query, and the data router's code would cost the first page about 17 kB
 * (docs/decisions/005-first-load-budget.md). A screen whose code is still on its way on the first
 * load shows PageLoading; later, the screen being left stays while the header shows a loading bar.
 */
export function AppRoutes() {
	const screen = useRoutes(appRoutes);
	return (
		<Suspense fallback={<PageLoading />}>
			{screen}
			<AnnounceHydrated />
		</Suspense>
	);
}

function isLazyScreen(component: unknown): component is LazyScreen {
	return typeof component === "function" && "preload" in component;
}

/**
 * Loads the code of the screens `pathname` shows that load on demand, so a prerendered page is
 * hydrated in one pass instead of waiting on its screen inside the hydration. Failures are left to
 * the render, whose error boundary reports them.
 */
export async function preloadScreensFor(pathname: string): Promise<void> {
	const matches = matchRoutes(appRoutes, pathname) ?? [];
	await Promise.all(
		matches
			.map((match) => match.route.Component)
			.filter(isLazyScreen)
			.map((screen) => screen.preload().catch(() => {})),
	);
}
