import * as AlertDialog from "@radix-ui/react-alert-dialog";
import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode, RefObject } from "react";
import { joinClassNames } from "../../lib/ui/class-names";

const WIDTHS = { sm: "max-w-sm", md: "max-w-md" } as const;

type DialogFrameProps = {
	/**
	 * "alert" for a question before an action: an alertdialog that a click outside does not
	 * dismiss, focus starting on its Cancel (AlertDialog.Cancel). "dialog" for a form of its own,
	 * closed by Dialog.Close, Escape or a click outside.
	 */
	kind: "alert" | "dialog";
	isOpen: boolean;
	onOpenChange: (isOpen: boolean) => void;
	/** The button that opens it, where it has one; focus goes back to it on closing. */
	trigger?: ReactNode;
	/**
	 * Where focus goes when a dialog without a trigger closes (it opens from a menu or a preview).
	 * Read at closing time, hence a ref.
	 */
	returnFocusRef?: RefObject<HTMLElement | null>;
	width?: keyof typeof WIDTHS;
	isBackdropBlurred?: boolean;
	/** Drawn beside the title and the body. */
	icon?: ReactNode;
	title: ReactNode;
	description: ReactNode;
	/** The body under the description: more text, or a form with its own buttons. */
	children?: ReactNode;
	/** The buttons at the foot, Cancel first (AlertDialog.Cancel or Dialog.Close). */
	footer?: ReactNode;
};

/**
 * The one frame of the centred dialogs: the dimmed page behind, the white card, its title and
 * description (the dialog's name and description), and where focus returns on closing.
 */
export function DialogFrame({
	kind,
	isOpen,
	onOpenChange,
	trigger,
	returnFocusRef,
	width = "md",
	isBackdropBlurred = false,
	icon,
	title,
	description,
	children,
	footer,
}: DialogFrameProps) {
	const Primitives = kind === "alert" ? AlertDialog : Dialog;
	const heading = (
		<>
			<Primitives.Title className="text-lg font-semibold text-slate-900">{title}</Primitives.Title>
			<Primitives.Description className="mt-2 text-sm break-words text-slate-600">
				{description}
			</Primitives.Description>
		</>
	);
	return (
		<Primitives.Root open={isOpen} onOpenChange={onOpenChange}>
			{trigger ? <Primitives.Trigger asChild>{trigger}</Primitives.Trigger> : null}
			<Primitives.Portal>
				<Primitives.Overlay
					className={joinClassNames(
						"fixed inset-0 z-dialog bg-slate-950/40",
						isBackdropBlurred && "backdrop-blur-[2px]",
					)}
				/>
				<Primitives.Content
					onCloseAutoFocus={
						returnFocusRef
							? (event) => {
									event.preventDefault();
									const target = returnFocusRef.current;
									if (target?.isConnected) target.focus({ preventScroll: true });
								}
							: undefined
					}
					className={joinClassNames(
						"fixed top-1/2 left-1/2 z-dialog w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200 focus:outline-none",
						WIDTHS[width],
					)}
				>
					{icon ? (
						<div className="flex gap-4">
							{icon}
							<div className="min-w-0">
								{heading}
								{children}
							</div>
						</div>
					) : (
						<>
							{heading}
							{children}
						</>
					)}
					{footer ? (
						<div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
							{footer}
						</div>
					) : null}
				</Primitives.Content>
			</Primitives.Portal>
		</Primitives.Root>
	);
}
