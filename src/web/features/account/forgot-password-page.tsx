import { Link } from "react-router";
import { APP_PATHS } from "../../../shared/app-routes";
import { FormCard } from "../../components/form-card";
import { RequestResetForm } from "./request-reset-form";

const LINK_CLASS_NAME = "font-semibold text-accent-700 underline-offset-4 hover:underline";

export function ForgotPasswordPage() {
	return (
		<FormCard
			title="Forgot your password?"
			description="Enter your e-mail address and we will send you a link to set a new one."
			footer={
				<>
					Remembered it?{" "}
					<Link to={APP_PATHS.login} className={LINK_CLASS_NAME}>
						Sign in
					</Link>
				</>
			}
		>
			<RequestResetForm submitLabel="Send the link" />
		</FormCard>
	);
}
