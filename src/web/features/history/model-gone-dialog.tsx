import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { CircleOff, SquarePen } from "lucide-react";
import type { RefObject } from "react";
import { Link } from "react-router";
import type { Generation } from "../../../shared/generation-responses";
import { MODEL_NO_LONGER_OFFERED } from "../../../shared/generation-settings";
import { getButtonClassName } from "../../components/button";
import { buildUsePromptLink } from "./generation-reuse";

type ModelGoneDialogProps = {
	/** The generation whose Rerun was asked for, while its model is no longer offered. */
	generation: Generation | null;
	onClose: () => void;
	/** Where focus goes when the dialog closes without leaving the page. */
	returnFocusRef: RefObject<HTMLElement | null>;
};

/**
 * What Rerun says instead of starting, when the generation's model is no longer offered: running
 * it on another model without asking would not be a rerun. It offers the generator with the
 * prompt and the rest of the settings filled (the seed stays random, as a rerun's would), where
 * the person chooses another model.
 */
export function ModelGoneDialog({ generation, onClose, returnFocusRef }: ModelGoneDialogProps) {
	return (
		<AlertDialog.Root
			open={generation !== null}
			onOpenChange={(isOpen) => (isOpen ? null : onClose())}
		>
			<AlertDialog.Portal>
				<AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/40" />
				<AlertDialog.Content
					onCloseAutoFocus={(event) => {
						// The dialog has no trigger of its own.
						event.preventDefault();
						const target = returnFocusRef.current;
						if (target?.isConnected) target.focus({ preventScroll: true });
					}}
					className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200 focus:outline-none"
				>
					<div className="flex gap-4">
						<span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-amber-50 text-amber-700 ring-1 ring-amber-200 ring-inset">
							<CircleOff aria-hidden="true" className="size-5" />
						</span>
						<div className="min-w-0">
							<AlertDialog.Title className="text-lg font-semibold text-slate-900">
								{MODEL_NO_LONGER_OFFERED}
							</AlertDialog.Title>
							<AlertDialog.Description className="mt-2 text-sm break-words text-slate-600">
								“{generation?.model.label}” cannot run this generation again. Open the generator
								with its prompt and settings filled in to choose another model.
							</AlertDialog.Description>
						</div>
					</div>
					<div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
						<AlertDialog.Cancel className={getButtonClassName({ variant: "secondary" })}>
							Cancel
						</AlertDialog.Cancel>
						{generation ? (
							<AlertDialog.Action asChild>
								<Link
									to={buildUsePromptLink(generation)}
									className={getButtonClassName({ variant: "primary" })}
								>
									<SquarePen aria-hidden="true" className="size-4" />
									Open the generator
								</Link>
							</AlertDialog.Action>
						) : null}
					</div>
				</AlertDialog.Content>
			</AlertDialog.Portal>
		</AlertDialog.Root>
	);
}
