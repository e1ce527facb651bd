// "Notifications on this device": Web Push for the browser in hand (turn on, send a test, turn off)
// and the person's devices that are notified, each with Remove. Part of the account page's chunk.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { BellRing, Trash2 } from "lucide-react";
import { type ReactNode, useState } from "react";
import { AlertMessage } from "../../components/alert-message";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { formatDateTime } from "../../lib/date-format";
import {
	findThisDevice,
	listPushDevices,
	readBrowserSubscription,
	readPushKey,
	readPushSupport,
	removePushDevice,
	sendTestPush,
	type TurnOnResult,
	turnOffPush,
	turnOnPush,
} from "../../lib/web-push";
import { Section } from "./account-section";

const PUSH_QUERY_KEY = ["account", "push"] as const;

/** Why this device's notifications stay off, in words for the person. */
export const PUSH_REFUSALS: Record<Extract<TurnOnResult, { isOn: false }>["reason"], string> = {
	unsupported: "This browser cannot receive notifications with the page closed.",
	insecure: "Notifications need Atelier on https:// (or localhost).",
	"turned-off-on-server": "Notifications with the page closed are turned off on this server.",
	denied:
		"Your browser blocks notifications from Atelier. Allow them in the site settings, then try again.",
};

async function readPushState() {
	const publicKey = await readPushKey();
	if (publicKey === null) return { isAvailable: false as const };
	const [devices, subscription] = await Promise.all([listPushDevices(), readBrowserSubscription()]);
	const thisDevice =
		typeof Notification !== "undefined" && Notification.permission === "granted"
			? findThisDevice(devices, subscription)
			: undefined;
	return { isAvailable: true as const, devices, thisDevice };
}

export function PushSection() {
	const queryClient = useQueryClient();
	const state = useQuery({ queryKey: PUSH_QUERY_KEY, queryFn: readPushState });
	const [busy, setBusy] = useState<string | null>(null);
	const [message, setMessage] = useState<string | null>(null);
	const [problem, setProblem] = useState<string | null>(null);
	const support = readPushSupport();

	async function act(name: string, action: () => Promise<string | null>) {
		setBusy(name);
		setMessage(null);
		setProblem(null);
		try {
			setMessage(await action());
		} catch (error) {
			setProblem(error instanceof Error ? error.message : "Something went wrong.");
		} finally {
			setBusy(null);
			await queryClient.invalidateQueries({ queryKey: PUSH_QUERY_KEY });
		}
	}

	const turnOn = () =>
		act("on", async () => {
			const result = await turnOnPush();
			if (!result.isOn) throw new Error(PUSH_REFUSALS[result.reason]);
			return "Notifications are on for this device.";
		});

	let body: ReactNode;
	if (state.isPending) body = <Spinner label="Loading your notified devices" />;
	else if (state.isError) body = <AlertMessage message={state.error.message} />;
	else if (!state.data.isAvailable) {
		body = <p className="text-sm text-slate-600">{PUSH_REFUSALS["turned-off-on-server"]}</p>;
	} else {
		const { devices, thisDevice } = state.data;
		body = (
			<div className="flex flex-col gap-4">
				{support !== "supported" ? (
					<p className="text-sm text-slate-600">{PUSH_REFUSALS[support]}</p>
				) : (
					<div className="flex flex-wrap items-center gap-2">
						<p className="text-sm text-slate-700">
							{thisDevice ? "On for this device." : "Off for this device."}
						</p>
						{thisDevice ? (
							<>
								<Button
									variant="secondary"
									size="sm"
									disabled={busy !== null}
									onClick={() =>
										void act("test", async () => {
											await sendTestPush(thisDevice.id);
											return "A test notification is on its way.";
										})
									}
								>
									Send a test
								</Button>
								<Button
									variant="ghost"
									size="sm"
									disabled={busy !== null}
									onClick={() =>
										void act("off", async () => {
											await turnOffPush(thisDevice);
											return "Notifications are off for this device.";
										})
									}
								>
									Turn off
								</Button>
							</>
						) : (
							<Button size="sm" disabled={busy !== null} onClick={() => void turnOn()}>
								<BellRing aria-hidden="true" className="size-4" />
								Turn on
							</Button>
						)}
					</div>
				)}
				{message ? (
					<p role="status" className="text-sm text-emerald-800">
						{message}
					</p>
				) : null}
				{problem ? <AlertMessage message={problem} /> : null}
				{devices.length === 0 ? (
					<p className="text-sm text-slate-600">No device is notified yet.</p>
				) : (
					<ul aria-label="Notified devices" className="divide-y divide-slate-200">
						{devices.map((device) => (
							<li key={device.id} className="flex items-start justify-between gap-3 py-3">
								<div className="min-w-0 text-sm">
									<p className="font-medium text-slate-900">
										{device.label}
										{device.id === thisDevice?.id ? (
											<span className="ml-2 text-xs font-semibold text-accent-700">
												This device
											</span>
										) : null}
									</p>
									<p className="text-slate-600">
										Added {formatDateTime(device.createdAt)} · Last notified{" "}
										{device.lastNotifiedAt ? formatDateTime(device.lastNotifiedAt) : "never"}
									</p>
								</div>
								<Button
									variant="ghost"
									size="sm"
									disabled={busy !== null}
									aria-label={`Remove ${device.label}`}
									onClick={() =>
										void act(`remove-${device.id}`, async () => {
											if (device.id === thisDevice?.id) await turnOffPush(device);
											else await removePushDevice(device.id);
											return `${device.label} is no longer notified.`;
										})
									}
								>
									<Trash2 aria-hidden="true" className="size-4" />
									Remove
								</Button>
							</li>
						))}
					</ul>
				)}
			</div>
		);
	}

	return (
		<Section
			title="Notifications on this device"
			description="Word when a generation completes or fails, even with Atelier closed, on each device you choose."
		>
			{body}
		</Section>
	);
}
