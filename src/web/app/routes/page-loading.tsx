import { appLoading } from "../../../shared/i18n/messages";
import { Spinner } from "../../components/basics/spinner";

/** Shown while the code of the first screen is still on its way. */
export function PageLoading() {
	return (
		<main className="flex min-h-dvh items-center justify-center text-accent-600">
			<Spinner size="lg" label={appLoading()} />
		</main>
	);
}
