// What can be done about a failure the result panel shows (result-panel.tsx): sign in, verify the
// address, see the history, try again. Loaded with the generation's code (generation-code.ts), not
// with the first page, which shows only the message itself.
import { Images, LogIn, RotateCw } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { APP_PATHS } from "../../../../shared/core/app-routes";
import {
	errorEmailNotVerified,
	errorSignInRequired,
	generatorCancelled,
	generatorCancelledNote,
	generatorInvalidPrompt,
	generatorTryAgain,
	generatorViewGenerations,
	signInSubmit,
} from "../../../../shared/i18n/messages";
import { Button, getButtonClassName } from "../../../components/basics/button";
import type { GeneratedRequest } from "../flow/generation-state";

type ErrorFollowUpProps = {
	error: string;
	request: GeneratedRequest | null;
	isSignedIn: boolean;
	verificationAction: ReactNode;
	onRetry: (request: GeneratedRequest) => void;
};

/** What can be done about the error shown above it. */
export function ErrorFollowUp({
	error,
	request,
	isSignedIn,
	verificationAction,
	onRetry,
}: ErrorFollowUpProps) {
	if (error === errorEmailNotVerified()) {
		return verificationAction ? <div className="mt-4">{verificationAction}</div> : null;
	}
	if (error === errorSignInRequired()) {
		return (
			<div className="mt-4">
				<Link to={APP_PATHS.login} className={getButtonClassName({ size: "sm" })}>
					<LogIn aria-hidden="true" className="size-4" />
					{signInSubmit()}
				</Link>
			</div>
		);
	}
	if (error === generatorCancelled()) {
		return (
			<div className="mt-4 space-y-3 text-sm text-slate-600">
				<p>{generatorCancelledNote()}</p>
				{isSignedIn ? (
					<Link
						to={APP_PATHS.generations}
						className={getButtonClassName({ variant: "secondary", size: "sm" })}
					>
						<Images aria-hidden="true" className="size-4" />
						{generatorViewGenerations()}
					</Link>
				) : null}
			</div>
		);
	}
	if (error === generatorInvalidPrompt() || !request) return null;
	return (
		<div className="mt-4">
			<Button variant="secondary" size="sm" onClick={() => onRetry(request)}>
				<RotateCw aria-hidden="true" className="size-4" />
				{generatorTryAgain()}
			</Button>
		</div>
	);
}
