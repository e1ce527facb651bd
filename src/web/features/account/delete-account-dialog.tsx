import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import {
	accountCancel,
	accountDeleteButton,
	accountDeleteConfirmExactly,
	accountDeleteDialogDescription,
	accountDeleteDialogTitle,
	accountDeleteEmailLabel,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../../components/basics/alert-message";
import { Button, getButtonClassName } from "../../components/basics/button";
import { DialogFrame } from "../../components/basics/dialog-frame";
import { TextField } from "../../components/forms/text-field";
import { deleteAccount } from "../../lib/account/account-requests";
import { ELEMENT_MARKER, splitAtElements } from "../../lib/ui/message-parts";

type DeleteAccountDialogProps = {
	email: string;
	/** Called once the server has deleted the account and ended the session. */
	onDeleted: () => Promise<void>;
};

function DeleteDescription({ email }: { email: string }) {
	const [before, after] = splitAtElements(
		accountDeleteDialogDescription({ email: ELEMENT_MARKER }),
	);
	return (
		<>
			{before}
			<strong>{email}</strong>
			{after}
		</>
	);
}

/** "Delete my account", confirmed by typing the account's e-mail address. */
export function DeleteAccountDialog({ email, onDeleted }: DeleteAccountDialogProps) {
	const [isOpen, setIsOpen] = useState(false);
	const [typed, setTyped] = useState("");
	const [isDeleting, setIsDeleting] = useState(false);
	const [errorMessage, setErrorMessage] = useState<string | null>(null);
	const isConfirmed = typed.trim().toLowerCase() === email.trim().toLowerCase();

	async function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		if (!isConfirmed) {
			setErrorMessage(accountDeleteConfirmExactly());
			return;
		}
		setErrorMessage(null);
		setIsDeleting(true);
		try {
			await deleteAccount(typed.trim());
		} catch (error) {
			setIsDeleting(false);
			setErrorMessage(error instanceof Error ? error.message : null);
			return;
		}
		await onDeleted();
	}

	return (
		<DialogFrame
			kind="alert"
			isOpen={isOpen}
			onOpenChange={(open) => {
				setIsOpen(open);
				if (!open) {
					setTyped("");
					setErrorMessage(null);
				}
			}}
			trigger={
				<button type="button" className={getButtonClassName({ variant: "danger" })}>
					<Trash2 aria-hidden="true" className="size-4" />
					{accountDeleteButton()}
				</button>
			}
			isBackdropBlurred
			title={accountDeleteDialogTitle()}
			description={<DeleteDescription email={email} />}
		>
			<form onSubmit={submit} className="mt-4 space-y-4">
				<TextField
					label={accountDeleteEmailLabel()}
					name="confirmEmail"
					type="email"
					autoComplete="off"
					value={typed}
					onChange={(event) => setTyped(event.target.value)}
				/>
				<AlertMessage message={errorMessage} />
				<div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
					<AlertDialog.Cancel className={getButtonClassName({ variant: "secondary" })}>
						{accountCancel()}
					</AlertDialog.Cancel>
					<Button type="submit" variant="danger" isBusy={isDeleting} disabled={!isConfirmed}>
						{accountDeleteButton()}
					</Button>
				</div>
			</form>
		</DialogFrame>
	);
}
