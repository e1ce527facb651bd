import { MailCheck } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import {
	accountResetRequested,
	fieldEmail,
	fieldEmailPlaceholder,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../../components/basics/alert-message";
import { Button } from "../../components/basics/button";
import { TextField } from "../../components/forms/text-field";
import { requestPasswordReset } from "../../lib/account/account-requests";
import { useTypedBeforeHydration } from "../../lib/ui/use-typed-before-hydration";

/**
 * Asks for an e-mail address and has a reset link sent to it. The forgot-password page is
 * prerendered: an address typed before the app hydrated it is taken into the form's state.
 */
export function RequestResetForm({ submitLabel }: { submitLabel: string }) {
	const formRef = useRef<HTMLFormElement>(null);
	const [email, setEmail] = useState("");
	useTypedBeforeHydration(formRef, { email: setEmail });
	const [isSubmitting, setIsSubmitting] = useState(false);
	const [sentTo, setSentTo] = useState<string | null>(null);
	const [errorMessage, setErrorMessage] = useState<string | null>(null);

	async function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		setErrorMessage(null);
		setIsSubmitting(true);
		try {
			await requestPasswordReset(email.trim());
			setSentTo(email.trim());
		} catch (error) {
			setErrorMessage(error instanceof Error ? error.message : null);
		} finally {
			setIsSubmitting(false);
		}
	}

	if (sentTo) {
		return (
			<div
				role="status"
				className="rounded-lg bg-emerald-50 p-4 text-sm text-emerald-900 ring-1 ring-emerald-200 ring-inset"
			>
				<p className="flex items-start gap-2">
					<MailCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
					{/* The same answer whether or not the address has an account. */}
					<span>{accountResetRequested()}</span>
				</p>
			</div>
		);
	}

	return (
		<form ref={formRef} onSubmit={submit} className="space-y-4">
			<TextField
				label={fieldEmail()}
				name="email"
				type="email"
				autoComplete="email"
				placeholder={fieldEmailPlaceholder()}
				required
				value={email}
				onChange={(event) => setEmail(event.target.value)}
			/>
			<AlertMessage message={errorMessage} />
			<Button type="submit" size="lg" isFullWidth isBusy={isSubmitting}>
				{submitLabel}
			</Button>
		</form>
	);
}
