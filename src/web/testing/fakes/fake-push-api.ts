import { HttpResponse, http } from "msw";
import { ERRORS, errorBody } from "../../../shared/core/errors";
import type { PushDevice } from "../../../shared/notifications/push";
import { mswServer } from "../msw-server";

/**
 * Answers the account's push routes from memory, as the server does for one person with
 * `devices`; `isTurnedOff` answers as a server with WEB_PUSH=off.
 */
export function startFakePushApi(options: { devices?: PushDevice[]; isTurnedOff?: boolean } = {}) {
	const state = { devices: [...(options.devices ?? [])], removed: [] as string[] };
	const turnedOff = () =>
		HttpResponse.json(
			{
				success: false,
				error: errorBody(
					"NOT_FOUND",
					"Notifications with the page closed are turned off on this server (WEB_PUSH=off).",
				),
			},
			{ status: ERRORS.NOT_FOUND.status },
		);
	mswServer.use(
		http.get("*/api/account/push/key", () =>
			options.isTurnedOff ? turnedOff() : HttpResponse.json({ publicKey: "BKey" }),
		),
		http.get("*/api/account/push/subscriptions", () =>
			options.isTurnedOff ? turnedOff() : HttpResponse.json({ items: state.devices }),
		),
		http.delete("*/api/account/push/subscriptions/:id", ({ params }) => {
			const id = String(params.id);
			state.removed.push(id);
			state.devices = state.devices.filter((device) => device.id !== id);
			return HttpResponse.json({ success: true });
		}),
	);
	return state;
}
