import * as AlertDialog from "@radix-ui/react-alert-dialog";
import type { ReactNode, RefObject } from "react";
import { historyCancel } from "../../../shared/i18n/messages";
import { getButtonClassName } from "./button";
import { DialogFrame } from "./dialog-frame";

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
		<DialogFrame
			kind="alert"
			isOpen={isOpen}
			onOpenChange={(open) => (open ? null : onClose())}
			returnFocusRef={returnFocusRef}
			icon={
				<span
					className={`inline-flex size-10 shrink-0 items-center justify-center rounded-full ring-1 ring-inset ${ICON_TONES[tone]}`}
				>
					{icon}
				</span>
			}
			title={title}
			description={description}
			footer={
				<>
					<AlertDialog.Cancel className={getButtonClassName({ variant: "secondary" })}>
						{historyCancel()}
					</AlertDialog.Cancel>
					{action}
				</>
			}
		>
			{children}
		</DialogFrame>
	);
}
