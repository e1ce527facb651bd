// "Notifications on this device": Web Push for the browser in hand (turn on, send a test, turn off)
// and the person's devices that are notified, each with Remove. Part of the account page's chunk.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { BellRing, Trash2 } from "lucide-react";
import { type ReactNode, useState } from "react";
import {
	accountDevicesThisDevice,
	accountPushAdded,
	accountPushDenied,
	accountPushDescription,
	accountPushFailed,
	accountPushInsecure,
	accountPushLastNotified,
	accountPushList,
	accountPushLoading,
	accountPushNeverNotified,
	accountPushNone,
	accountPushOffHere,
	accountPushOnHere,
	accountPushRemove,
	accountPushRemoved,
	accountPushRemoveNamed,
	accountPushSendTest,
	accountPushTestSent,
	accountPushTitle,
	accountPushTurnedOff,
	accountPushTurnedOffOnServer,
	accountPushTurnedOn,
	accountPushTurnOff,
	accountPushTurnOn,
	accountPushUnsupported,
} from "../../../shared/i18n/messages";
import { AlertMessage } from "../../components/basics/alert-message";
import { Button } from "../../components/basics/button";
import { Spinner } from "../../components/basics/spinner";
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
} from "../../lib/generations/web-push";
import { formatDateTime } from "../../lib/ui/date-format";
import { Section } from "./account-section";

const PUSH_QUERY_KEY = ["account", "push"] as const;

/** Why this device's notifications stay off, in words for the person (the page's language). */
const PUSH_REFUSALS: Record<Extract<TurnOnResult, { isOn: false }>["reason"], () => string> = {
	unsupported: accountPushUnsupported,
	insecure: accountPushInsecure,
	"turned-off-on-server": accountPushTurnedOffOnServer,
	denied: accountPushDenied,
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
			setProblem(error instanceof Error ? error.message : accountPushFailed());
		} finally {
			setBusy(null);
			await queryClient.invalidateQueries({ queryKey: PUSH_QUERY_KEY });
		}
	}

	const turnOn = () =>
		act("on", async () => {
			const result = await turnOnPush();
			if (!result.isOn) throw new Error(PUSH_REFUSALS[result.reason]());
			return accountPushTurnedOn();
		});

	let body: ReactNode;
	if (state.isPending) body = <Spinner label={accountPushLoading()} />;
	else if (state.isError) body = <AlertMessage message={state.error.message} />;
	else if (!state.data.isAvailable) {
		body = <p className="text-sm text-slate-600">{PUSH_REFUSALS["turned-off-on-server"]()}</p>;
	} else {
		const { devices, thisDevice } = state.data;
		body = (
			<div className="flex flex-col gap-4">
				{support !== "supported" ? (
					<p className="text-sm text-slate-600">{PUSH_REFUSALS[support]()}</p>
				) : (
					<div className="flex flex-wrap items-center gap-2">
						<p className="text-sm text-slate-700">
							{thisDevice ? accountPushOnHere() : accountPushOffHere()}
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
											return accountPushTestSent();
										})
									}
								>
									{accountPushSendTest()}
								</Button>
								<Button
									variant="ghost"
									size="sm"
									disabled={busy !== null}
									onClick={() =>
										void act("off", async () => {
											await turnOffPush(thisDevice);
											return accountPushTurnedOff();
										})
									}
								>
									{accountPushTurnOff()}
								</Button>
							</>
						) : (
							<Button size="sm" disabled={busy !== null} onClick={() => void turnOn()}>
								<BellRing aria-hidden="true" className="size-4" />
								{accountPushTurnOn()}
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
					<p className="text-sm text-slate-600">{accountPushNone()}</p>
				) : (
					<ul aria-label={accountPushList()} className="divide-y divide-slate-200">
						{devices.map((device) => (
							<li key={device.id} className="flex items-start justify-between gap-3 py-3">
								<div className="min-w-0 text-sm">
									<p className="font-medium text-slate-900">
										{device.label}
										{device.id === thisDevice?.id ? (
											<span className="ml-2 text-xs font-semibold text-accent-700">
												{accountDevicesThisDevice()}
											</span>
										) : null}
									</p>
									<p className="text-slate-600">
										{accountPushAdded({ date: formatDateTime(device.createdAt) })} ·{" "}
										{device.lastNotifiedAt
											? accountPushLastNotified({ date: formatDateTime(device.lastNotifiedAt) })
											: accountPushNeverNotified()}
									</p>
								</div>
								<Button
									variant="ghost"
									size="sm"
									disabled={busy !== null}
									aria-label={accountPushRemoveNamed({ device: device.label })}
									onClick={() =>
										void act(`remove-${device.id}`, async () => {
											if (device.id === thisDevice?.id) await turnOffPush(device);
											else await removePushDevice(device.id);
											return accountPushRemoved({ device: device.label });
										})
									}
								>
									<Trash2 aria-hidden="true" className="size-4" />
									{accountPushRemove()}
								</Button>
							</li>
						))}
					</ul>
				)}
			</div>
		);
	}

	return (
		<Section title={accountPushTitle()} description={accountPushDescription()}>
			{body}
		</Section>
	);
}
