import { createPortal } from "react-dom";
import { Link } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	authClaimForgotPassword,
	authClaimLabel,
	authClaimSteps,
	authClaimTitle,
} from "../../../shared/i18n/messages";
import { ELEMENT_MARKER, splitAtElements } from "../../lib/ui/message-parts";

/**
 * What the signed-in owner of the administrator's address does before holding its powers: the
 * server gives them only once the address is proven, by the mailed link or by Google.
 */
export function AdminClaimNotice({ email }: { email: string }) {
	const [before, after] = splitAtElements(authClaimSteps({ email, link: ELEMENT_MARKER }));
	// Out of the header (its backdrop filter would hold a fixed box inside it), over the page's foot.
	return createPortal(
		<section
			aria-label={authClaimLabel()}
			className="fixed inset-x-0 bottom-0 z-bar bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
		>
			<div className="mx-auto max-w-6xl">
				<p className="font-medium">{authClaimTitle()}</p>
				<p className="mt-1">
					{before}
					<Link to={APP_PATHS["forgot-password"]} className="font-medium underline">
						{authClaimForgotPassword()}
					</Link>
					{after}
				</p>
			</div>
		</section>,
		document.body,
	);
}
