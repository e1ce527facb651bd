import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { CircleOff, SquarePen } from "lucide-react";
import type { RefObject } from "react";
import { Link } from "react-router";
import type { Generation } from "../../../../shared/generations/generation-responses";
import {
	historyModelGone,
	historyOpenGenerator,
	modelNoLongerOffered,
} from "../../../../shared/i18n/messages";
import { getButtonClassName } from "../../../components/basics/button";
import { ConfirmDialog } from "../../../components/basics/confirm-dialog";
import { buildUsePromptLink } from "../cards/generation-reuse";

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
		<ConfirmDialog
			isOpen={generation !== null}
			onClose={onClose}
			returnFocusRef={returnFocusRef}
			icon={<CircleOff aria-hidden="true" className="size-5" />}
			tone="warning"
			title={modelNoLongerOffered()}
			description={historyModelGone({ model: generation?.model.label ?? "" })}
			action={
				generation ? (
					<AlertDialog.Action asChild>
						<Link
							to={buildUsePromptLink(generation)}
							className={getButtonClassName({ variant: "primary" })}
						>
							<SquarePen aria-hidden="true" className="size-4" />
							{historyOpenGenerator()}
						</Link>
					</AlertDialog.Action>
				) : null
			}
		/>
	);
}
