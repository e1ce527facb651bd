import { useState } from "react";
import { authGoogleFailed, authGoogleFailedBecause } from "../../../shared/i18n/messages";
import { Button, type ButtonSize } from "../../components/basics/button";
import type { AuthActionError } from "../../lib/account/auth-errors";
import { isRecord, readString } from "../../lib/api/read-json";
import { joinClassNames } from "../../lib/ui/class-names";
import { useAuth } from "./auth-context";
import { GoogleLogo } from "./google-logo";

/** "Google sign-in failed", followed by the reason when one is known. */
export function formatGoogleSignInError(reason: string | undefined): string {
	return reason ? authGoogleFailedBecause({ reason }) : authGoogleFailed();
}

/**
 * The server's reason in the AuthActionError that `signInWithGoogle` throws when refused. Read by
 * its shape: the class loads with the auth client (lib/account/better-auth-client.ts), not with the header
 * this button sits in; anything else (the client failed to load) has no reason to give.
 */
function readRefusalReason(error: unknown): string | undefined {
	const key = "serverMessage" satisfies keyof AuthActionError;
	return isRecord(error) ? readString(error, key) : undefined;
}

type GoogleSignInButtonProps = {
	label: string;
	/** Receives "Google sign-in failed", with the server's reason when it gave one. */
	onError: (message: string) => void;
	/** Hide the label below the sm breakpoint and show only the logo (it stays the button's name). */
	isCompact?: boolean;
	isFullWidth?: boolean;
	size?: ButtonSize;
	/** Called when the user starts the flow, so the screen can clear an earlier message. */
	onStart?: () => void;
};

export function GoogleSignInButton({
	label,
	onError,
	isCompact = false,
	isFullWidth = false,
	size = "md",
	onStart,
}: GoogleSignInButtonProps) {
	const { signInWithGoogle } = useAuth();
	const [isRedirecting, setIsRedirecting] = useState(false);

	async function startGoogleSignIn() {
		onStart?.();
		setIsRedirecting(true);
		try {
			await signInWithGoogle();
			// Stay busy: the browser is on its way to Google.
		} catch (error) {
			setIsRedirecting(false);
			onError(formatGoogleSignInError(readRefusalReason(error)));
		}
	}

	return (
		<Button
			variant="secondary"
			size={size}
			isFullWidth={isFullWidth}
			isBusy={isRedirecting}
			onClick={startGoogleSignIn}
		>
			{isRedirecting ? null : <GoogleLogo className="size-4" />}
			<span className={joinClassNames(isCompact && "sr-only sm:not-sr-only")}>{label}</span>
		</Button>
	);
}
