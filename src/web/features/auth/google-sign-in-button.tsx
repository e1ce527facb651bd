import { useState } from "react";
import { Button, type ButtonSize } from "../../components/button";
import { AuthActionError, formatGoogleSignInError } from "../../lib/auth-errors";
import { joinClassNames } from "../../lib/class-names";
import { useAuth } from "./auth-context";
import { GoogleLogo } from "./google-logo";

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
			onError(
				formatGoogleSignInError(error instanceof AuthActionError ? error.serverMessage : undefined),
			);
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
