import { createBrowserRouter, type RouteObject } from "react-router";
import { RequireSignedIn, RequireSignedOut } from "../features/auth/route-guards";
import { loadAuthClient } from "../lib/auth-client";
import { AuthLayout } from "./auth-layout";
import { RouteErrorPage } from "./error-boundary";
import { GeneratorRoute } from "./generator-route";
import { LayoutShell } from "./layout-shell";
import { NotFoundPage } from "./not-found-page";
import { PageLoading } from "./page-loading";

/** These screens exist to call the auth client: fetch it alongside them, not on the first click. */
function warmUpAuthClient(): void {
	// A hint only: if it fails, the first action tries again and reports any failure.
	loadAuthClient().catch(() => {});
}

/**
 * Every route of the web app (SPEC.md section 2, plus the account screens). Everything but the
 * generator is loaded on demand so the first page stays small.
 */
export const appRoutes: RouteObject[] = [
	{
		path: "/",
		Component: LayoutShell,
		ErrorBoundary: RouteErrorPage,
		HydrateFallback: PageLoading,
		children: [
			{ index: true, Component: GeneratorRoute },
			{
				Component: RequireSignedIn,
				children: [
					{
						path: "generations",
						lazy: async () => ({
							Component: (await import("./generations-route")).GenerationsRoute,
						}),
					},
					{
						path: "account",
						lazy: async () => {
							warmUpAuthClient();
							return { Component: (await import("./account-route")).AccountRoute };
						},
					},
				],
			},
			{ path: "*", Component: NotFoundPage },
		],
	},
	{
		Component: AuthLayout,
		ErrorBoundary: RouteErrorPage,
		HydrateFallback: PageLoading,
		children: [
			{
				Component: RequireSignedOut,
				children: [
					{
						path: "login",
						lazy: async () => {
							warmUpAuthClient();
							return { Component: (await import("../features/auth/login-page")).LoginPage };
						},
					},
					{
						path: "signup",
						lazy: async () => {
							warmUpAuthClient();
							return { Component: (await import("../features/auth/signup-page")).SignupPage };
						},
					},
				],
			},
			// Reached from e-mails, signed in or not.
			{
				path: "forgot-password",
				lazy: async () => {
					warmUpAuthClient();
					return { Component: (await import("./account-recovery-routes")).ForgotPasswordRoute };
				},
			},
			{
				path: "reset-password",
				lazy: async () => {
					warmUpAuthClient();
					return { Component: (await import("./account-recovery-routes")).ResetPasswordRoute };
				},
			},
			{
				path: "verify-email",
				lazy: async () => {
					warmUpAuthClient();
					return { Component: (await import("./account-recovery-routes")).VerifyEmailRoute };
				},
			},
		],
	},
];

export function createAppRouter() {
	return createBrowserRouter(appRoutes);
}
