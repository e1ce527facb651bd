import { MailCheck, Send } from "lucide-react";
import { useState } from "react";
import {
	accountVerifyResend,
	accountVerifyResent,
	accountVerifySendingFailed,
} from "../../../shared/i18n/messages";
import { Button } from "../../components/basics/button";
import { sendVerificationEmail } from "../../lib/account/account-requests";

type ResendVerificationButtonProps = { email: string };

/** "Resend the e-mail": asks for a new verification link and says what happened. */
export function ResendVerificationButton({ email }: ResendVerificationButtonProps) {
	const [state, setState] = useState<"idle" | "sending" | "sent">("idle");
	const [errorMessage, setErrorMessage] = useState<string | null>(null);

	async function resend() {
		setState("sending");
		setErrorMessage(null);
		try {
			await sendVerificationEmail(email);
			setState("sent");
		} catch (error) {
			setState("idle");
			setErrorMessage(error instanceof Error ? error.message : accountVerifySendingFailed());
		}
	}

	return (
		<div className="space-y-2">
			<Button
				variant="secondary"
				size="sm"
				isBusy={state === "sending"}
				onClick={() => void resend()}
			>
				<Send aria-hidden="true" className="size-4" />
				{accountVerifyResend()}
			</Button>
			<div role="status" className="text-sm">
				{state === "sent" ? (
					<p className="flex items-center gap-1.5 text-emerald-800">
						<MailCheck aria-hidden="true" className="size-4" />
						{accountVerifyResent({ email })}
					</p>
				) : null}
				{errorMessage ? <p className="text-red-800">{errorMessage}</p> : null}
			</div>
		</div>
	);
}
