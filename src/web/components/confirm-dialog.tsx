import * as AlertDialog from "@radix-ui/react-alert-dialog";
import type { ReactNode, RefObject } from "react";
import { getButtonClassName } from "./button";

const ICON_TONES = {
	danger: "bg-red-50 text-red-600 ring-red-200",
	warning: "bg-amber-50 text-amber-700 ring-amber-200",
} as const;

type ConfirmDialogProps = {
	isOpen: boolean;
	onClose: () => void;
	/**
	 * Where focus goes when the dialog closes: it has no trigger of its own (it opens from a card's
	 * menu or a preview). Read at closing time, hence a ref.
	 */
	returnFocusRef: RefObject<HTMLElement | null>;
	icon: ReactNode;
	tone: keyof typeof ICON_TONES;
	title: ReactNode;
	description: ReactNode;
	/** More of the body, under the description. */
	children?: ReactNode;
	/** The action beside Cancel: an AlertDialog.Action. */
	action: ReactNode;
};

/** A question before something happens: an icon, a title and a description, Cancel and the action. */
export function ConfirmDialog({
	isOpen,
	onClose,
	returnFocusRef,
	icon,
	tone,
	title,
	description,
	children,
	action,
}: ConfirmDialogProps) {
	return (
		<AlertDialog.Root open={isOpen} onOpenChange={(open) => (open ? null : onClose())}>
			<AlertDialog.Portal>
				<AlertDialog.Overlay className="fixed inset-0 z-dialog bg-slate-950/40" />
				<AlertDialog.Content
					onCloseAutoFocus={(event) => {
						event.preventDefault();
						const target = returnFocusRef.current;
						if (target?.isConnected) target.focus({ preventScroll: true });
					}}
					className="fixed top-1/2 left-1/2 z-dialog w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200 focus:outline-none"
				>
					<div className="flex gap-4">
						<span
							className={`inline-flex size-10 shrink-0 items-center justify-center rounded-full ring-1 ring-inset ${ICON_TONES[tone]}`}
						>
							{icon}
						</span>
						<div className="min-w-0">
							<AlertDialog.Title className="text-lg font-semibold text-slate-900">
								{title}
							</AlertDialog.Title>
							<AlertDialog.Description className="mt-2 text-sm break-words text-slate-600">
								{description}
							</AlertDialog.Description>
							{children}
						</div>
					</div>
					<div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
						<AlertDialog.Cancel className={getButtonClassName({ variant: "secondary" })}>
							Cancel
						</AlertDialog.Cancel>
						{action}
					</div>
				</AlertDialog.Content>
			</AlertDialog.Portal>
		</AlertDialog.Root>
	);
}
