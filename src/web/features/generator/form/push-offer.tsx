// Beside "Notify me when done": with it on and this device's notifications with the page closed
// off, an offer to turn them on, so word arrives with Atelier closed too. Nothing is asked of the
// browser until the button is pressed.
import { useEffect, useState } from "react";
import {
	generatorPushOffer,
	generatorPushOn,
	generatorPushOnlyOpen,
	generatorPushRefused,
} from "../../../../shared/i18n/messages";
import {
	readBrowserSubscription,
	readPushKey,
	readPushSupport,
	turnOnPush,
} from "../../../lib/generations/web-push";

export function PushOffer() {
	const [isOffered, setIsOffered] = useState(false);
	const [isBusy, setIsBusy] = useState(false);
	const [outcome, setOutcome] = useState<string | null>(null);

	useEffect(() => {
		if (readPushSupport() !== "supported") return;
		let isCurrent = true;
		void (async () => {
			const subscription = await readBrowserSubscription().catch(() => null);
			if (subscription && Notification.permission === "granted") return;
			const key = await readPushKey().catch(() => null);
			if (isCurrent && key !== null) setIsOffered(true);
		})();
		return () => {
			isCurrent = false;
		};
	}, []);

	if (!isOffered) return null;
	if (outcome) {
		return (
			<p role="status" className="text-sm text-slate-700">
				{outcome}
			</p>
		);
	}
	const turnOn = async () => {
		setIsBusy(true);
		const result = await turnOnPush().catch(() => ({ isOn: false as const }));
		setIsBusy(false);
		setOutcome(result.isOn ? generatorPushOn() : generatorPushRefused());
	};
	return (
		<p className="text-sm text-slate-700">
			{generatorPushOnlyOpen()}{" "}
			<button
				type="button"
				disabled={isBusy}
				onClick={() => void turnOn()}
				className="font-medium text-accent-700 underline underline-offset-2 disabled:opacity-60"
			>
				{generatorPushOffer()}
			</button>
		</p>
	);
}
