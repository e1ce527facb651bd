import { CircleCheck } from "lucide-react";
import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import type { SessionUser } from "../../../shared/account/session";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	accountVerifyAlreadyVerified,
	accountVerifyDoneDescription,
	accountVerifyDoneTitle,
	accountVerifyFailedDescription,
	accountVerifyFailedTitle,
	accountVerifySignInThenResend,
	accountVerifySignInToResend,
	accountVerifyStart,
} from "../../../shared/i18n/messages";
import { getButtonClassName } from "../../components/basics/button";
import { FormCard } from "../../components/forms/form-card";
import { ResendVerificationButton } from "./resend-verification-button";

type VerifyEmailPageProps = {
	user: SessionUser | null;
	/** Looks the session up again, so the verified address counts at once. */
	onVerified: () => Promise<void>;
};

/** Where the verification link lands: Better Auth sends `?error=` when the link did not work. */
export function VerifyEmailPage({ user, onVerified }: VerifyEmailPageProps) {
	const [searchParams] = useSearchParams();
	const error = searchParams.get("error");

	useEffect(() => {
		if (!error) void onVerified();
	}, [error, onVerified]);

	if (error) {
		const canResend = user !== null && !user.emailVerified;
		return (
			<FormCard
				title={accountVerifyFailedTitle()}
				description={accountVerifyFailedDescription()}
				footer={
					user ? null : (
						<Link
							to={APP_PATHS.login}
							className="font-semibold text-accent-700 underline-offset-4 hover:underline"
						>
							{accountVerifySignInToResend()}
						</Link>
					)
				}
			>
				{canResend ? (
					<ResendVerificationButton email={user.email} />
				) : (
					<p className="text-center text-sm text-slate-600">
						{user ? accountVerifyAlreadyVerified() : accountVerifySignInThenResend()}
					</p>
				)}
			</FormCard>
		);
	}

	return (
		<FormCard title={accountVerifyDoneTitle()} description={accountVerifyDoneDescription()}>
			<div className="flex flex-col items-center gap-4">
				<CircleCheck aria-hidden="true" className="size-10 text-emerald-600" />
				<Link to={APP_PATHS.generator} className={getButtonClassName({ size: "lg" })}>
					{accountVerifyStart()}
				</Link>
			</div>
		</FormCard>
	);
}
