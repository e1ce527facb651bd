import { Images, ShieldCheck } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { Link } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	adminBadge,
	appGallery,
	appViewGenerations,
	headerAccountNavigation,
	headerSignInWithGoogle,
	signInSubmit,
} from "../../../shared/i18n/messages";
import { Badge } from "../../components/basics/badge";
import { getButtonClassName } from "../../components/basics/button";
import { useAuth } from "../../features/auth/auth-context";
import { GoogleSignInButton } from "../../features/auth/google-sign-in-button";
import { showToast } from "../../lib/ui/toast";
import { BrandButton } from "./brand-button";
import { useIsScreenLoading } from "./lazy-screen";

// The menu and its confirmation dialog are only needed once someone is signed in.
const UserMenu = lazy(async () => ({
	default: (await import("../../features/auth/user-menu")).UserMenu,
}));

// "1 running" and the poll behind it: asked for once the page has painted (an effect runs after).
const ActiveGenerationsBadge = lazy(async () => ({
	default: (await import("./active-generations-badge")).ActiveGenerationsBadge,
}));

function showErrorToast(message: string) {
	void showToast("error", message);
}

function AccountPlaceholder({ className }: { className: string }) {
	return <span aria-hidden="true" className={`animate-pulse bg-slate-200/70 ${className}`} />;
}

function AccountActions() {
	const { user, isLoading } = useAuth();
	const [isPainted, setIsPainted] = useState(false);
	useEffect(() => setIsPainted(true), []);

	if (isLoading) {
		// Hold the space without guessing: showing Sign In first would flash for signed-in users.
		return <AccountPlaceholder className="h-9 w-28 rounded-lg" />;
	}

	if (!user) {
		return (
			<>
				<Link to={APP_PATHS.login} className={getButtonClassName({ size: "sm" })}>
					{signInSubmit()}
				</Link>
				<GoogleSignInButton
					label={headerSignInWithGoogle()}
					size="sm"
					isCompact
					onError={showErrorToast}
				/>
			</>
		);
	}

	return (
		<>
			{isPainted ? (
				<Suspense>
					<ActiveGenerationsBadge />
				</Suspense>
			) : null}
			<Link
				to={APP_PATHS.generations}
				className={getButtonClassName({ variant: "ghost", size: "sm" })}
			>
				<Images aria-hidden="true" className="size-4" />
				<span className="hidden sm:inline">{appViewGenerations()}</span>
				<span className="sm:hidden">{appGallery()}</span>
			</Link>
			<Suspense fallback={<AccountPlaceholder className="size-9 rounded-full" />}>
				<UserMenu onError={showErrorToast} />
			</Suspense>
		</>
	);
}

export function SiteHeader() {
	const { isAdmin } = useAuth();
	const isScreenLoading = useIsScreenLoading();

	return (
		<header className="sticky top-0 z-bar border-b border-slate-200/80 bg-white/80 backdrop-blur-md">
			<div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:px-6 lg:px-8">
				<div className="flex min-w-0 items-center gap-2">
					<BrandButton />
					{isAdmin ? (
						<Badge icon={<ShieldCheck aria-hidden="true" className="size-3.5" />}>
							{adminBadge()}
						</Badge>
					) : null}
				</div>
				{/* As wide as the wider of the signed-in and signed-out forms (Sign In and Google; the
				    history link and the menu), so nothing moves when the session arrives. */}
				<nav
					aria-label={headerAccountNavigation()}
					className="flex min-w-[9.75rem] items-center justify-end gap-1.5 sm:min-w-[15.25rem] sm:gap-2"
				>
					<AccountActions />
				</nav>
			</div>
			{isScreenLoading ? (
				<div
					aria-hidden="true"
					className="absolute inset-x-0 bottom-0 h-0.5 animate-pulse bg-gradient-to-r from-accent-500 via-accent-600 to-accent-500"
				/>
			) : null}
		</header>
	);
}
