import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Copy, Send, Trash2, Webhook } from "lucide-react";
import { type FormEvent, useId, useRef, useState } from "react";
import {
	accountCopied,
	accountDelete,
	accountDone,
	accountWebhooksAdd,
	accountWebhooksAttempts,
	accountWebhooksCopySecret,
	accountWebhooksDeleteDescription,
	accountWebhooksDeleteEndpoint,
	accountWebhooksDeleteNamed,
	accountWebhooksDeleteTitle,
	accountWebhooksDelivered,
	accountWebhooksEvent,
	accountWebhooksEvents,
	accountWebhooksEventsMissing,
	accountWebhooksFailed,
	accountWebhooksLastStatus,
	accountWebhooksList,
	accountWebhooksLoading,
	accountWebhooksLogCaption,
	accountWebhooksLogLoading,
	accountWebhooksNoDeliveries,
	accountWebhooksNone,
	accountWebhooksSecret,
	accountWebhooksSecretNote,
	accountWebhooksSendTest,
	accountWebhooksState,
	accountWebhooksTestQueued,
	accountWebhooksTime,
	accountWebhooksUrl,
	accountWebhooksUrlHint,
	accountWebhooksUrlMissing,
	accountWebhooksWaiting,
} from "../../../shared/i18n/messages";
import {
	WEBHOOK_EVENT_TYPES,
	type WebhookDelivery,
	type WebhookEndpoint,
	type WebhookEventType,
} from "../../../shared/notifications/webhooks";
import { AlertMessage } from "../../components/basics/alert-message";
import { Badge } from "../../components/basics/badge";
import { Button, getButtonClassName } from "../../components/basics/button";
import { ConfirmDialog } from "../../components/basics/confirm-dialog";
import { DataTable, NUMERIC_CELL_CLASS_NAME } from "../../components/basics/data-table";
import { Spinner } from "../../components/basics/spinner";
import { TextField } from "../../components/forms/text-field";
import {
	addWebhook,
	deleteWebhook,
	listWebhookDeliveries,
	listWebhooks,
	sendWebhookTestEvent,
} from "../../lib/account/account-requests";
import { formatDateTime } from "../../lib/ui/date-format";

const WEBHOOKS_QUERY_KEY = ["account", "webhooks"] as const;
const deliveriesQueryKey = (endpointId: string) =>
	["account", "webhooks", endpointId, "deliveries"] as const;

/** While a delivery waits for an attempt, the log is read again this often. */
const PENDING_REFRESH_MS = 2_000;

function errorText(error: unknown): string | null {
	return error instanceof Error ? error.message : null;
}

/** The last attempt's outcome in a few words: the status code, or why there was none. */
function describeLastAttempt(delivery: WebhookDelivery): string {
	if (delivery.lastStatusCode !== null) return String(delivery.lastStatusCode);
	if (delivery.lastError) return delivery.lastError;
	return "—";
}

const STATUS_LABELS: Record<WebhookDelivery["status"], () => string> = {
	pending: accountWebhooksWaiting,
	delivered: accountWebhooksDelivered,
	failed: accountWebhooksFailed,
};

/** An address the field shows as an example (a URL, the same in every language). */
const EXAMPLE_ENDPOINT_URL = "https://example.com/atelier-hooks";

function DeliveryLog({ endpointId }: { endpointId: string }) {
	const deliveries = useQuery({
		queryKey: deliveriesQueryKey(endpointId),
		queryFn: () => listWebhookDeliveries(endpointId),
		refetchInterval: (query) =>
			query.state.data?.some((delivery) => delivery.status === "pending")
				? PENDING_REFRESH_MS
				: false,
	});
	if (deliveries.isPending) return <Spinner label={accountWebhooksLogLoading()} />;
	if (deliveries.isError) return <AlertMessage message={deliveries.error.message} />;
	if (deliveries.data.length === 0) {
		return <p className="text-sm text-slate-600">{accountWebhooksNoDeliveries()}</p>;
	}
	return (
		<div className="overflow-x-auto">
			<DataTable
				className="text-sm"
				caption={accountWebhooksLogCaption()}
				head={
					<>
						<th scope="col" className="py-1.5 pr-3">
							{accountWebhooksEvent()}
						</th>
						<th scope="col" className="py-1.5 pr-3">
							{accountWebhooksTime()}
						</th>
						<th scope="col" className={`py-1.5 pr-3 ${NUMERIC_CELL_CLASS_NAME}`}>
							{accountWebhooksAttempts()}
						</th>
						<th scope="col" className="py-1.5 pr-3">
							{accountWebhooksLastStatus()}
						</th>
						<th scope="col" className="py-1.5">
							{accountWebhooksState()}
						</th>
					</>
				}
			>
				{deliveries.data.map((delivery) => (
					<tr key={delivery.id} className="text-slate-900">
						<td className="py-1.5 pr-3 font-mono text-xs">{delivery.type}</td>
						<td className="py-1.5 pr-3 whitespace-nowrap">
							{formatDateTime(delivery.lastAttemptAt ?? delivery.createdAt)}
						</td>
						<td className={`py-1.5 pr-3 ${NUMERIC_CELL_CLASS_NAME}`}>{delivery.attempts}</td>
						<td className="py-1.5 pr-3">{describeLastAttempt(delivery)}</td>
						<td className="py-1.5">{STATUS_LABELS[delivery.status]()}</td>
					</tr>
				))}
			</DataTable>
		</div>
	);
}

function EndpointItem({ endpoint }: { endpoint: WebhookEndpoint }) {
	const queryClient = useQueryClient();
	const [isConfirming, setIsConfirming] = useState(false);
	const deleteButtonRef = useRef<HTMLButtonElement>(null);
	const test = useMutation({
		mutationFn: () => sendWebhookTestEvent(endpoint.id),
		onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesQueryKey(endpoint.id) }),
	});
	const remove = useMutation({
		mutationFn: () => deleteWebhook(endpoint.id),
		onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_QUERY_KEY }),
	});
	const headingId = useId();

	return (
		<li aria-labelledby={headingId} className="space-y-3 py-4">
			<div className="flex flex-wrap items-start justify-between gap-3">
				<div className="min-w-0">
					<h3 id={headingId} className="text-sm font-medium break-all text-slate-900">
						{endpoint.url}
					</h3>
					<div className="mt-1 flex flex-wrap gap-1.5">
						{endpoint.events.map((event) => (
							<Badge key={event}>{event}</Badge>
						))}
					</div>
				</div>
				<div className="flex gap-2">
					<Button
						variant="secondary"
						size="sm"
						isBusy={test.isPending}
						onClick={() => test.mutate()}
					>
						<Send aria-hidden="true" className="size-4" />
						{accountWebhooksSendTest()}
					</Button>
					<Button
						ref={deleteButtonRef}
						variant="ghost"
						size="sm"
						aria-label={accountWebhooksDeleteNamed({ url: endpoint.url })}
						onClick={() => setIsConfirming(true)}
					>
						<Trash2 aria-hidden="true" className="size-4" />
						{accountDelete()}
					</Button>
				</div>
			</div>
			<div role="status" className="text-sm text-emerald-800">
				{test.isSuccess ? accountWebhooksTestQueued() : null}
			</div>
			<AlertMessage message={errorText(test.error) ?? errorText(remove.error)} />
			<DeliveryLog endpointId={endpoint.id} />
			<ConfirmDialog
				isOpen={isConfirming}
				onClose={() => setIsConfirming(false)}
				returnFocusRef={deleteButtonRef}
				icon={<Trash2 aria-hidden="true" className="size-5" />}
				tone="danger"
				title={accountWebhooksDeleteTitle()}
				description={accountWebhooksDeleteDescription({ url: endpoint.url })}
				action={
					<AlertDialog.Action
						className={getButtonClassName({ variant: "danger" })}
						onClick={() => remove.mutate()}
					>
						{accountWebhooksDeleteEndpoint()}
					</AlertDialog.Action>
				}
			/>
		</li>
	);
}

/** The secret of the endpoint just added: shown this once, with a way to copy it. */
function NewSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
	const [isCopied, setIsCopied] = useState(false);
	return (
		<div className="space-y-3 rounded-lg bg-amber-50 p-4 text-sm text-amber-950 ring-1 ring-amber-200 ring-inset">
			<p className="font-medium">{accountWebhooksSecretNote()}</p>
			<TextField
				label={accountWebhooksSecret()}
				readOnly
				value={secret}
				onFocus={(event) => event.currentTarget.select()}
			/>
			<div className="flex gap-2">
				<Button
					variant="secondary"
					size="sm"
					onClick={() => {
						void navigator.clipboard?.writeText(secret).then(() => setIsCopied(true));
					}}
				>
					<Copy aria-hidden="true" className="size-4" />
					{isCopied ? accountCopied() : accountWebhooksCopySecret()}
				</Button>
				<Button variant="ghost" size="sm" onClick={onDone}>
					{accountDone()}
				</Button>
			</div>
		</div>
	);
}

function AddEndpointForm({ onAdded }: { onAdded: (secret: string) => void }) {
	const queryClient = useQueryClient();
	const [url, setUrl] = useState("");
	const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES]);
	const [problem, setProblem] = useState<string | null>(null);
	const add = useMutation({
		mutationFn: addWebhook,
		onSuccess: async (created) => {
			setUrl("");
			onAdded(created.secret);
			await queryClient.invalidateQueries({ queryKey: WEBHOOKS_QUERY_KEY });
		},
	});

	function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		const missing = !url.trim()
			? accountWebhooksUrlMissing()
			: events.length === 0
				? accountWebhooksEventsMissing()
				: null;
		setProblem(missing);
		if (!missing) add.mutate({ url: url.trim(), events });
	}

	function toggle(type: WebhookEventType, isChecked: boolean) {
		setEvents((current) =>
			isChecked ? [...new Set([...current, type])] : current.filter((item) => item !== type),
		);
	}

	return (
		<form onSubmit={submit} noValidate className="space-y-3">
			<TextField
				label={accountWebhooksUrl()}
				type="url"
				inputMode="url"
				autoComplete="off"
				placeholder={EXAMPLE_ENDPOINT_URL}
				hint={accountWebhooksUrlHint()}
				value={url}
				onChange={(event) => setUrl(event.target.value)}
			/>
			<fieldset>
				<legend className="mb-1.5 text-sm font-medium text-slate-800">
					{accountWebhooksEvents()}
				</legend>
				<div className="flex flex-wrap gap-4">
					{WEBHOOK_EVENT_TYPES.map((type) => (
						<label key={type} className="flex items-center gap-2 text-sm text-slate-800">
							<input
								type="checkbox"
								className="size-4 accent-accent-600"
								checked={events.includes(type)}
								onChange={(event) => toggle(type, event.target.checked)}
							/>
							<span className="font-mono text-xs">{type}</span>
						</label>
					))}
				</div>
			</fieldset>
			<AlertMessage message={problem ?? errorText(add.error)} />
			<Button type="submit" variant="secondary" isBusy={add.isPending}>
				<Webhook aria-hidden="true" className="size-4" />
				{accountWebhooksAdd()}
			</Button>
		</form>
	);
}

/**
 * The account page's Webhooks section: the endpoints Atelier tells when a generation completes or
 * fails, each with a test event and its delivery log, and the form to add one.
 */
export function WebhooksSection() {
	const endpoints = useQuery({ queryKey: WEBHOOKS_QUERY_KEY, queryFn: listWebhooks });
	const [newSecret, setNewSecret] = useState<string | null>(null);

	return (
		<div className="space-y-4">
			{newSecret ? <NewSecret secret={newSecret} onDone={() => setNewSecret(null)} /> : null}
			{endpoints.isPending ? (
				<Spinner label={accountWebhooksLoading()} />
			) : endpoints.isError ? (
				<AlertMessage message={endpoints.error.message} />
			) : endpoints.data.length === 0 ? (
				<p className="text-sm text-slate-600">{accountWebhooksNone()}</p>
			) : (
				<ul aria-label={accountWebhooksList()} className="divide-y divide-slate-200">
					{endpoints.data.map((endpoint) => (
						<EndpointItem key={endpoint.id} endpoint={endpoint} />
					))}
				</ul>
			)}
			<AddEndpointForm onAdded={setNewSecret} />
		</div>
	);
}
