import { createPortal } from "react-dom";
import { Link } from "react-router";
import { APP_PATHS } from "../../../shared/app-routes";

/**
 * What the signed-in owner of the administrator's address does before holding its powers: the
 * server gives them only once the address is proven, by the mailed link or by Google.
 */
export function AdminClaimNotice({ email }: { email: string }) {
	// Out of the header (its backdrop filter would hold a fixed box inside it), over the page's foot.
	return createPortal(
		<section
			aria-label="Claim the administrator's account"
			className="fixed inset-x-0 bottom-0 z-bar bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
		>
			<div className="mx-auto max-w-6xl">
				<p className="font-medium">This is the administrator's address, not yet claimed.</p>
				<p className="mt-1">
					To take up the administrator's role, open the link "Claim the Atelier administrator's
					account" mailed to {email} (on a server without mail, it is in the server's log) and
					choose your password there, or sign in with Google. No mail?{" "}
					<Link to={APP_PATHS["forgot-password"]} className="font-medium underline">
						Forgot password
					</Link>{" "}
					sends it again. Every session, API token and webhook made before then ends.
				</p>
			</div>
		</section>,
		document.body,
	);
}
