import * as Dialog from "@radix-ui/react-dialog";
import { type FormEvent, type RefObject, useState } from "react";
import {
	MAX_ACTIVE_OVERRIDE,
	MAX_DAILY_OVERRIDE,
	type Person,
	type PersonQuota,
} from "../../../shared/admin/people";
import {
	adminCancel,
	adminQuotaActiveHint,
	adminQuotaActiveInvalid,
	adminQuotaActiveLabel,
	adminQuotaDailyHint,
	adminQuotaDailyInvalid,
	adminQuotaDailyLabel,
	adminQuotaDescription,
	adminQuotaRestore,
	adminQuotaSave,
	adminQuotaTitle,
} from "../../../shared/i18n/messages";
import { Button, getButtonClassName } from "../../components/basics/button";
import { DialogFrame } from "../../components/basics/dialog-frame";
import { TextField } from "../../components/forms/text-field";
import { describeDaily } from "./person-row";

type QuotaDialogProps = {
	person: Person | null;
	defaults: { maxActive: number; daily: number };
	isBusy: boolean;
	onSave: (person: Person, quota: PersonQuota) => void;
	onClose: () => void;
	returnFocusRef: RefObject<HTMLElement | null>;
};

/** A field's text as a quota: empty is the default (null), else a whole number in range. */
function readLimit(text: string, min: number, max: number): number | null | "invalid" {
	const trimmed = text.trim();
	if (trimmed === "") return null;
	if (!/^\d+$/.test(trimmed)) return "invalid";
	const value = Number(trimmed);
	return value >= min && value <= max ? value : "invalid";
}

/** The form itself, mounted for one person at a time so its fields start from their quotas. */
function QuotaForm({
	person,
	defaults,
	isBusy,
	onSave,
}: Omit<QuotaDialogProps, "person" | "onClose" | "returnFocusRef"> & { person: Person }) {
	const [maxActive, setMaxActive] = useState(person.quota.maxActive?.toString() ?? "");
	const [daily, setDaily] = useState(person.quota.daily?.toString() ?? "");
	const [error, setError] = useState<string | null>(null);

	function submit(event: FormEvent) {
		event.preventDefault();
		const active = readLimit(maxActive, 1, MAX_ACTIVE_OVERRIDE);
		const perDay = readLimit(daily, 0, MAX_DAILY_OVERRIDE);
		if (active === "invalid") {
			// The bounds as typed in the field, without a thousands separator.
			setError(adminQuotaActiveInvalid({ max: String(MAX_ACTIVE_OVERRIDE) }));
			return;
		}
		if (perDay === "invalid") {
			setError(adminQuotaDailyInvalid({ max: String(MAX_DAILY_OVERRIDE) }));
			return;
		}
		setError(null);
		onSave(person, { maxActive: active, daily: perDay });
	}

	return (
		<form onSubmit={submit} noValidate className="mt-4 space-y-4">
			<TextField
				label={adminQuotaActiveLabel()}
				inputMode="numeric"
				value={maxActive}
				onChange={(event) => setMaxActive(event.target.value)}
				placeholder={String(defaults.maxActive)}
				hint={adminQuotaActiveHint({ count: defaults.maxActive })}
			/>
			<TextField
				label={adminQuotaDailyLabel()}
				inputMode="numeric"
				value={daily}
				onChange={(event) => setDaily(event.target.value)}
				placeholder={String(defaults.daily)}
				hint={adminQuotaDailyHint({ limit: describeDaily(defaults.daily) })}
			/>
			{error ? (
				<p role="alert" className="text-sm font-medium text-red-800">
					{error}
				</p>
			) : null}
			<div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
				<Dialog.Close className={getButtonClassName({ variant: "secondary" })}>
					{adminCancel()}
				</Dialog.Close>
				<Button
					variant="secondary"
					disabled={isBusy}
					onClick={() => onSave(person, { maxActive: null, daily: null })}
				>
					{adminQuotaRestore()}
				</Button>
				<Button type="submit" isBusy={isBusy}>
					{adminQuotaSave()}
				</Button>
			</div>
		</form>
	);
}

/**
 * The quotas of one person, which replace the server's defaults for them: how many generations
 * may run at once and how many a day. Empty fields, or Restore defaults, give the defaults back.
 */
export function QuotaDialog({
	person,
	defaults,
	isBusy,
	onSave,
	onClose,
	returnFocusRef,
}: QuotaDialogProps) {
	return (
		<DialogFrame
			kind="dialog"
			isOpen={person !== null}
			onOpenChange={(open) => (open ? null : onClose())}
			returnFocusRef={returnFocusRef}
			title={adminQuotaTitle()}
			description={person ? adminQuotaDescription({ email: person.email }) : null}
		>
			{person ? (
				<QuotaForm
					key={person.id}
					person={person}
					defaults={defaults}
					isBusy={isBusy}
					onSave={onSave}
				/>
			) : null}
		</DialogFrame>
	);
}
