import { Link } from "react-router";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	authForgotDescription,
	authForgotRemembered,
	authForgotSignIn,
	authForgotSubmit,
	authForgotTitle,
} from "../../../shared/i18n/messages";
import { FormCard } from "../../components/forms/form-card";
import { RequestResetForm } from "./request-reset-form";

const LINK_CLASS_NAME = "font-semibold text-accent-700 underline-offset-4 hover:underline";

export function ForgotPasswordPage() {
	return (
		<FormCard
			title={authForgotTitle()}
			description={authForgotDescription()}
			footer={
				<>
					{authForgotRemembered()}{" "}
					<Link to={APP_PATHS.login} className={LINK_CLASS_NAME}>
						{authForgotSignIn()}
					</Link>
				</>
			}
		>
			<RequestResetForm submitLabel={authForgotSubmit()} />
		</FormCard>
	);
}
