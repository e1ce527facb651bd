import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { AlertMessage } from "../../components/alert-message";
import { Button, getButtonClassName } from "../../components/button";
import { TextField } from "../../components/text-field";
import { deleteAccount } from "../../lib/account-requests";

type DeleteAccountDialogProps = {
	email: string;
	/** Called once the server has deleted the account and ended the session. */
	onDeleted: () => Promise<void>;
};

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
			setErrorMessage("Type your e-mail address exactly to confirm.");
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
		<AlertDialog.Root
			open={isOpen}
			onOpenChange={(open) => {
				setIsOpen(open);
				if (!open) {
					setTyped("");
					setErrorMessage(null);
				}
			}}
		>
			<AlertDialog.Trigger className={getButtonClassName({ variant: "danger" })}>
				<Trash2 aria-hidden="true" className="size-4" />
				Delete my account
			</AlertDialog.Trigger>
			<AlertDialog.Portal>
				<AlertDialog.Overlay className="fixed inset-0 z-dialog bg-slate-950/40 backdrop-blur-[2px]" />
				<AlertDialog.Content className="fixed top-1/2 left-1/2 z-dialog w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200 focus:outline-none">
					<AlertDialog.Title className="text-lg font-semibold text-slate-900">
						Delete your account?
					</AlertDialog.Title>
					<AlertDialog.Description className="mt-2 text-sm text-slate-600">
						This removes every generation and image you made, signs you out everywhere and deletes
						the account. It cannot be undone. Type <strong>{email}</strong> to confirm.
					</AlertDialog.Description>
					<form onSubmit={submit} className="mt-4 space-y-4">
						<TextField
							label="Your e-mail address"
							name="confirmEmail"
							type="email"
							autoComplete="off"
							value={typed}
							onChange={(event) => setTyped(event.target.value)}
						/>
						<AlertMessage message={errorMessage} />
						<div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
							<AlertDialog.Cancel className={getButtonClassName({ variant: "secondary" })}>
								Cancel
							</AlertDialog.Cancel>
							<Button type="submit" variant="danger" isBusy={isDeleting} disabled={!isConfirmed}>
								Delete my account
							</Button>
						</div>
					</form>
				</AlertDialog.Content>
			</AlertDialog.Portal>
		</AlertDialog.Root>
	);
}
